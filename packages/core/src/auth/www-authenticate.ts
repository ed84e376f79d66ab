/** One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1); parameter names are lower-cased. */
export interface Challenge {
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

/** The parameters MCP authorization reads from a Bearer (or DPoP) challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface AuthChallenge {
  readonly scheme: string;
  readonly error?: string;
  readonly errorDescription?: string;
  readonly scope?: string;
  readonly resourceMetadata?: string;
  readonly realm?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/**
 * Parses every challenge of a `WWW-Authenticate` value: `scheme`, then either a
 * token68 or comma-separated `name=value` pairs (quoted strings unescaped). A
 * malformed tail ends parsing; what was read so far is kept.
 */
export function parseWwwAuthenticate(header: string): Challenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let rest = header;
  const skip = (pattern: RegExp) => {
    rest = rest.replace(pattern, '');
  };
  while (true) {
    skip(/^[\s,]+/);
    const scheme = TOKEN.exec(rest)?.[0];
    if (!scheme) break;
    rest = rest.slice(scheme.length);
    const challenge = { scheme, params: {} as Record<string, string> };
    challenges.push(challenge);
    skip(/^[ \t]+/);
    // token68 (e.g. `Basic dXNlcg==`): no `=` right after a token, or only padding.
    const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(rest);
    if (token68 && !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*=\s*[^=]/.test(rest)) {
      rest = rest.slice(token68[0].length);
      continue;
    }
    while (true) {
      skip(/^[\s,]+/);
      const param = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*/.exec(rest);
      if (!param?.[1]) break;
      rest = rest.slice(param[0].length);
      let value: string;
      if (rest.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (!quoted) return challenges;
        value = (quoted[1] ?? '').replace(/\\(.)/g, '$1');
        rest = rest.slice(quoted[0].length);
      } else {
        value = TOKEN.exec(rest)?.[0] ?? '';
        rest = rest.slice(value.length);
      }
      challenge.params[param[1].toLowerCase()] = value;
    }
  }
  return challenges;
}

/**
 * The challenge MCP authorization acts on: Bearer or DPoP (2025-06-18+ servers
 * put `resource_metadata` there), else the first one. Undefined without a header.
 */
export function authChallenge(header: string | null): AuthChallenge | undefined {
  if (!header) return undefined;
  const challenges = parseWwwAuthenticate(header);
  const chosen =
    challenges.find((c) => c.scheme.toLowerCase() === 'bearer') ??
    challenges.find((c) => c.scheme.toLowerCase() === 'dpop') ??
    challenges[0];
  if (!chosen) return undefined;
  const { params } = chosen;
  const pick = (name: string) => (params[name] ? { [camel(name)]: params[name] } : {});
  return {
    scheme: chosen.scheme,
    ...pick('error'),
    ...pick('error_description'),
    ...pick('scope'),
    ...pick('resource_metadata'),
    ...pick('realm'),
  };
}

function camel(name: string): string {
  return name.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase());
}
