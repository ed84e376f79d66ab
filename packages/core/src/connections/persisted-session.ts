import * as v from 'valibot';
import type { EraCache, EraKind } from '../client/options.js';
import type { SessionSnapshot } from '../client/session-snapshot.js';
import { ServerCapabilitiesSchema } from '../protocol/capabilities.js';
import { ImplementationSchema } from '../protocol/implementation.js';
import { PROTOCOL_VERSIONS } from '../protocol/versions.js';
import type { Store } from './store.js';

/**
 * A stored session as read back: whatever another tab, process or person wrote
 * under the key is checked before a client resumes with it. `serverKey` names
 * the endpoint it belongs to, so a config whose URL changed starts afresh.
 */
const StoredSessionSchema = v.looseObject({
  serverKey: v.string(),
  protocolVersion: v.picklist(PROTOCOL_VERSIONS),
  sessionId: v.optional(v.string()),
  serverInfo: ImplementationSchema,
  capabilities: ServerCapabilitiesSchema,
  instructions: v.optional(v.string()),
});

const EraSchema = v.picklist(['legacy', 'modern']);

/**
 * One connection's part of its stores: its session snapshot under
 * `<prefix>session:<name>` in `store`, and the era verdict of its server under
 * `<prefix>era:<serverKey>` in `eraStore` (the same store unless the sessions
 * are kept apart, per browser tab say). Every failure of a store is reported and
 * taken as nothing stored: a broken store costs a handshake, never the connection.
 */
export class PersistedSession {
  readonly #store: Store;
  readonly #eraStore: Store;
  readonly #prefix: string;
  readonly #sessionKey: string;
  readonly #report: (error: Error) => void;

  constructor(store: Store, eraStore: Store, prefix: string, name: string, report: (error: Error) => void) {
    this.#store = store;
    this.#eraStore = eraStore;
    this.#prefix = prefix;
    this.#sessionKey = `${prefix}session:${name}`;
    this.#report = report;
  }

  /** The stored session of `serverKey`'s server, or undefined: none, garbage (then forgotten), or another server's. */
  async load(serverKey: string | undefined): Promise<SessionSnapshot | undefined> {
    let stored: unknown;
    try {
      stored = await this.#store.get(this.#sessionKey);
    } catch (error) {
      this.#report(storeError(`reading ${this.#sessionKey}`, error));
      return undefined;
    }
    if (stored === undefined || stored === null) return undefined;
    const parsed = v.safeParse(StoredSessionSchema, stored);
    if (!parsed.success || parsed.output.serverKey !== serverKey) {
      if (!parsed.success)
        this.#report(new Error(`${this.#sessionKey}: the stored session is not one, and is dropped`));
      await this.forget();
      return undefined;
    }
    // Only the snapshot's own fields: whatever else was stored is not handed to the client.
    const { protocolVersion, sessionId, serverInfo, capabilities, instructions } = parsed.output;
    return {
      protocolVersion,
      ...(sessionId !== undefined && { sessionId }),
      serverInfo,
      capabilities,
      ...(instructions !== undefined && { instructions }),
    };
  }

  /** Keeps `session` of `serverKey`'s server, for the next page, invocation or process. */
  async save(serverKey: string | undefined, session: SessionSnapshot | undefined): Promise<void> {
    if (!session || serverKey === undefined) return;
    await this.#store.set(this.#sessionKey, { ...session, serverKey }).catch((error: unknown) => {
      this.#report(storeError(`writing ${this.#sessionKey}`, error));
    });
  }

  /** Drops the stored session: it is dead, garbage, or its connection was closed for good. */
  async forget(): Promise<void> {
    await this.#store.delete(this.#sessionKey).catch((error: unknown) => {
      this.#report(storeError(`deleting ${this.#sessionKey}`, error));
    });
  }

  /**
   * An era cache for the Client, which reads it synchronously: the stored
   * verdict of `serverKey` is loaded first, and a new verdict is written back.
   */
  async eraCache(serverKey: string | undefined): Promise<EraCache> {
    const verdicts = new Map<string, EraKind>();
    if (serverKey !== undefined) {
      const key = `${this.#prefix}era:${serverKey}`;
      try {
        const stored = v.safeParse(EraSchema, await this.#eraStore.get(key));
        if (stored.success) verdicts.set(serverKey, stored.output);
      } catch (error) {
        this.#report(storeError(`reading ${key}`, error));
      }
    }
    return {
      get: (server) => verdicts.get(server),
      set: (server, era) => {
        if (verdicts.get(server) === era) return;
        verdicts.set(server, era);
        const key = `${this.#prefix}era:${server}`;
        this.#eraStore.set(key, era).catch((error: unknown) => this.#report(storeError(`writing ${key}`, error)));
      },
    };
  }
}

function storeError(doing: string, cause: unknown): Error {
  return new Error(`the store failed ${doing}`, { cause });
}
