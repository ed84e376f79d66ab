// The platform types the guides' snippets use, declared as Cloudflare's workers-types and Deno declare them,
// cut to the members the snippets call (neither package is installed here). scripts/docs/check-snippets.mjs.

interface KVNamespace {
  get(key: string): Promise<string | null>;
  get(key: string, type: 'json'): Promise<unknown>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

interface DurableObjectStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
}

interface DurableObjectState {
  readonly storage: DurableObjectStorage;
}

declare namespace Deno {
  const env: { get(key: string): string | undefined };
}
