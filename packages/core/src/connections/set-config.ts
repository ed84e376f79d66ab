import * as v from 'valibot';
import { LimitError } from '../errors/limit-error.js';
import { jsonExcerpt } from '../util/excerpt.js';
import { ConnectionError } from './connection-error.js';
import type { ServerConfig } from './server-config.js';
import { isSourceName, SOURCE_NAME_RULE } from './tool-names.js';

/**
 * Bytes of one server's config as JSON (UTF-8) that a set takes by default
 * (`maxConfigBytes`, 16 KiB): room for a URL and a few headers with long
 * tokens, and a bound on what a stored value written by someone else can cost.
 */
export const DEFAULT_MAX_CONFIG_BYTES = 16_384;

/**
 * A server config as a set keeps it in its store (`<prefix>config:<name>`, its
 * name also in the list `<prefix>configs`): plain JSON, no transport factory.
 */
export interface StoredConfig {
  /** The server's name in the set: letters, digits and `-`, single `_` between them, at most 32 characters. */
  readonly name: string;
  /** The server's http: or https: endpoint. */
  readonly url: string;
  /** Sent on every request: header names are tokens, values hold no line break. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The server needs OAuth (see `ServerConfig.oauth`). */
  readonly oauth?: boolean;
}

/** An HTTP header name (RFC 9110 §5.6.2, a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value fetch accepts: no line breaks and no NUL, which would let one header write another. */
const HEADER_VALUE = /^[^\r\n\0]*$/;

const NameSchema = v.pipe(
  v.string('`name` must be a string'),
  v.check(
    isSourceName,
    (issue) => `name ${jsonExcerpt(issue.input, 64)} is not a server name: use ${SOURCE_NAME_RULE}`,
  ),
);

const HeadersSchema = v.record(
  v.pipe(
    v.string(),
    v.regex(HEADER_NAME, (issue) => `header name ${jsonExcerpt(issue.input, 64)} is not a token`),
  ),
  v.pipe(
    v.string('a header value must be a string'),
    v.regex(HEADER_VALUE, 'a header value must not hold a line break or NUL'),
  ),
);

const HttpUrlSchema = v.pipe(
  v.string('`url` must be a string'),
  v.check(isHttpUrl, (issue) => `url ${jsonExcerpt(issue.input, 100)} is not an http: or https: URL`),
);

/** What a set persists, and all it reads back from a store. Unknown keys are dropped. */
const StoredConfigSchema = v.object({
  name: NameSchema,
  url: HttpUrlSchema,
  headers: v.exactOptional(HeadersSchema),
  oauth: v.exactOptional(v.boolean('`oauth` must be true or false')),
});

/** A config an app gives `add()`: the stored shape, or a transport factory instead of `url`. */
const GivenConfigSchema = v.object({
  name: NameSchema,
  url: v.optional(v.union([HttpUrlSchema, v.pipe(v.instance(URL), v.transform(String), HttpUrlSchema)])),
  transport: v.optional(
    v.custom<() => never>((input) => typeof input === 'function', '`transport` must be a function'),
  ),
  headers: v.exactOptional(HeadersSchema),
  oauth: v.exactOptional(v.boolean('`oauth` must be true or false')),
});

/**
 * `config` as an app gave it, checked for a set: a server name (it prefixes
 * tool names and keys in the store), an http(s) `url` or a `transport`
 * factory (not both), header names and values fetch can send, and at most
 * `maxConfigBytes` of JSON. Returns the config and, unless it has a
 * transport factory, what to store. Throws a `ConnectionError`
 * (`invalid_config`) or a `LimitError` (`maxConfigBytes`).
 */
export function checkGivenConfig(
  config: unknown,
  maxConfigBytes: number,
): { readonly config: ServerConfig; readonly stored?: StoredConfig } {
  checkSize(nameOf(config), config, maxConfigBytes);
  const parsed = v.safeParse(GivenConfigSchema, config);
  if (!parsed.success) throw invalid(nameOf(config), parsed.issues);
  const { transport, url, ...rest } = parsed.output;
  if ((url === undefined) === (transport === undefined)) {
    throw new ConnectionError('invalid_config', `Servers: ${rest.name}: give exactly one of \`url\` and \`transport\``);
  }
  const stored = url === undefined ? undefined : { ...rest, url };
  const checked: ServerConfig = transport ? { ...rest, transport } : { ...rest, url: url as string };
  return stored ? { config: checked, stored } : { config: checked };
}

/**
 * A config read back from a store, which anyone with access may have written:
 * the stored shape, under the name it is kept for, within `maxConfigBytes`.
 * Throws a `ConnectionError` (`invalid_config`) or a `LimitError`.
 */
export function checkStoredConfig(value: unknown, name: string, maxConfigBytes: number): StoredConfig {
  // Measured first: a value of many megabytes is refused before anything walks it twice.
  checkSize(name, value, maxConfigBytes);
  const parsed = v.safeParse(StoredConfigSchema, value);
  if (!parsed.success) throw invalid(name, parsed.issues, 'the stored config');
  if (parsed.output.name !== name) {
    throw new ConnectionError(
      'invalid_config',
      `Servers: the stored config of ${name} names ${excerptName(parsed.output.name)}`,
    );
  }
  return parsed.output;
}

/** A stored list of names: strings, or nothing usable (undefined). */
export function storedNames(value: unknown): readonly string[] | undefined {
  if (value === undefined || value === null) return [];
  const parsed = v.safeParse(v.array(v.string()), value);
  return parsed.success ? parsed.output : undefined;
}

function checkSize(name: string, value: unknown, maxConfigBytes: number): void {
  let bytes: number;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(value) ?? '').length;
  } catch {
    // Cyclic, a BigInt, nested past what JSON.stringify recurses into: not JSON, so not a config.
    throw new ConnectionError('invalid_config', `Servers: the config of ${excerptName(name)} is not JSON`);
  }
  if (bytes > maxConfigBytes) {
    throw new LimitError(
      'maxConfigBytes',
      maxConfigBytes,
      `Servers: the config of ${excerptName(name)} is ${bytes} bytes of JSON`,
    );
  }
}

function invalid(name: string, issues: readonly v.BaseIssue<unknown>[], what = 'config'): ConnectionError {
  const where = (issue: v.BaseIssue<unknown>) => {
    const path = issue.path?.map((item) => String(item.key)).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  };
  const first = issues[0];
  return new ConnectionError(
    'invalid_config',
    `Servers: ${what} of ${excerptName(name)} is not usable: ${first ? where(first) : 'unknown problem'}`,
  );
}

function nameOf(config: unknown): string {
  const name = (config as { name?: unknown } | null)?.name;
  return typeof config === 'object' && typeof name === 'string' ? name : '(no name)';
}

/** A name for a message: quoted, and cut, since a stored one may be anything. */
function excerptName(name: string): string {
  return jsonExcerpt(name, 64);
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
