import * as v from 'valibot';

/** What a metadata GET found: the parsed document, or why there is none (for the error message). */
export type JsonLookup<T> = { readonly found: T } | { readonly missing: string };

/**
 * GETs a JSON document and validates it. A refusal, a network failure (a browser
 * reports a CORS-less 404 that way) or an invalid body is `missing`, so discovery
 * can try its next URL. Metadata carries no credentials, so redirects are followed.
 */
export async function getJson<T>(
  fetchFn: typeof fetch,
  url: string,
  schema: v.GenericSchema<unknown, T>,
): Promise<JsonLookup<T>> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    return { missing: `${url}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { missing: `${url}: HTTP ${response.status}` };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { missing: `${url}: not JSON` };
  }
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    return { missing: `${url}: invalid document${where ? ` (${where}: ${issue.message})` : `: ${issue.message}`}` };
  }
  return { found: parsed.output };
}

/** The fetch to use now: the injected one, else the global read at call time. */
export function fetchOf(injected: typeof fetch | undefined): typeof fetch {
  return injected ?? ((input, init) => globalThis.fetch(input, init));
}
