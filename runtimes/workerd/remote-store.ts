import { type Store, StoreError, type StoreErrorCode } from '../../packages/core/src/connections/index.js';

/** What stores-worker.js answers about a store: a value, the id of a begun update, or an error as JSON. */
interface StoreAnswer {
  value?: unknown;
  id?: string;
  current?: unknown;
  error?: { name?: string; message?: string; code?: string; key?: string };
}

/** Sends one request to the Worker and reads its JSON answer. */
export type SendToWorker = (path: string, init?: RequestInit) => Promise<StoreAnswer>;

/** The Worker's error again: a StoreError as one, any other as an Error with the same name. */
function rebuilt(error: NonNullable<StoreAnswer['error']>): Error {
  const message = error.message ?? '';
  if (error.name === 'StoreError') return new StoreError(error.code as StoreErrorCode, error.key ?? '', message);
  return Object.assign(new Error(message), { name: error.name });
}

/**
 * A Store in Node whose every call is carried out by a store in workerd (stores-worker.js), at
 * `area` (`/do/<object>` or `/kv`): the values and the exclusion are the Worker's; only `change`
 * runs here, while the Worker's update holds the key for it (`begin`, then `commit`).
 */
export function remoteStore(send: SendToWorker, area: string, atomic = true): Store {
  const at = (action: string, params: Record<string, string>) => `${area}/${action}?${new URLSearchParams(params)}`;
  const ok = async (path: string, init?: RequestInit) => {
    const answer = await send(path, init);
    if (answer.error) throw rebuilt(answer.error);
    return answer;
  };
  const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });
  return {
    ...(atomic ? {} : { atomic: false }),
    get: async (key) => (await ok(at('get', { key }))).value,
    async set(key, value) {
      await ok(at('set', { key }), post({ value }));
    },
    async delete(key) {
      await ok(at('delete', { key }));
    },
    async update<T>(key: string, change: (current: unknown) => T | Promise<T>): Promise<T> {
      const begun = await ok(at('begin', { key }));
      const id = begun.id ?? '';
      let value: T;
      try {
        value = await change(begun.current);
      } catch (error) {
        await send(at('commit', { id }), post({ threw: true }));
        throw error;
      }
      return (await ok(at('commit', { id }), post({ value }))).value as T;
    },
  };
}
