import { readFileSync } from 'node:fs';

/** What a test takes from an example's wrangler.jsonc, so it runs the Worker with the bindings a deployment gets. */
export interface WranglerConfig {
  /** The Worker's main module. */
  readonly main: URL;
  readonly compatibilityDate: string;
  /** Durable Object binding → class, as Miniflare's `durableObjects` option takes them. */
  readonly durableObjects: Record<string, string>;
  /** KV binding names, as Miniflare's `kvNamespaces` option takes them. */
  readonly kvNamespaces: string[];
}

interface RawConfig {
  main?: string;
  compatibility_date?: string;
  durable_objects?: { bindings?: Array<{ name: string; class_name: string }> };
  kv_namespaces?: Array<{ binding: string }>;
  migrations?: Array<{ new_classes?: string[]; new_sqlite_classes?: string[] }>;
}

/** JSON text without its comments: a string is kept whole, so a `//` in a URL stays. */
const withoutComments = (text: string) =>
  text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, string?: string) => string ?? '');

/**
 * Reads `wrangler.jsonc` in `folder` (a URL ending in /). Throws when it names no main module or
 * compatibility date, or binds a Durable Object class that no migration creates (wrangler would
 * refuse to deploy it).
 */
export function readWranglerConfig(folder: URL): WranglerConfig {
  const file = new URL('wrangler.jsonc', folder);
  const raw = JSON.parse(withoutComments(readFileSync(file, 'utf8'))) as RawConfig;
  if (!raw.main || !raw.compatibility_date)
    throw new Error(`${file.pathname}: main and compatibility_date are required`);
  const migrated = new Set(
    raw.migrations?.flatMap((step) => [...(step.new_classes ?? []), ...(step.new_sqlite_classes ?? [])]),
  );
  const objects = raw.durable_objects?.bindings ?? [];
  const unmigrated = objects.filter((binding) => !migrated.has(binding.class_name));
  if (unmigrated.length > 0) {
    throw new Error(
      `${file.pathname}: no migration creates ${unmigrated.map((binding) => binding.class_name).join(', ')}`,
    );
  }
  return {
    main: new URL(raw.main, folder),
    compatibilityDate: raw.compatibility_date,
    durableObjects: Object.fromEntries(objects.map((binding) => [binding.name, binding.class_name])),
    kvNamespaces: (raw.kv_namespaces ?? []).map((namespace) => namespace.binding),
  };
}
