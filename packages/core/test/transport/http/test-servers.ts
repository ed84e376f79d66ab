/**
 * Typed entry points into test-servers/http (plain JS, no declarations): the
 * servers these tests talk to, and the shapes of fault scripts and their stats
 * as test-servers/README.md documents them.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
// @ts-expect-error test-servers/http is plain JS without declarations
import { createFaultHandler as createFaultHandlerJs } from '../../../../../test-servers/http/fault-server.mjs';
// @ts-expect-error test-servers/http is plain JS without declarations
import { toNodeListener as toNodeListenerJs } from '../../../../../test-servers/http/node-adapter.mjs';
import { startHttpServers as startHttpServersJs } from '../../../../../test-servers/http/serve.mjs';

/** What `startHttpServers()` resolves to. */
export interface HttpServers {
  /** Base URL of the reference servers (`/stateful`, `/stateless`, `/resumable`, `/legacy-sse`, `/v2`). */
  readonly modes: string;
  /** Base URL of the fault server (`POST /faults`). */
  readonly faults: string;
  /** The fault server on a second origin, where redirects point. */
  readonly other: string;
  /** A URL where nothing listens. */
  readonly refused: string;
  close(): Promise<void>;
}

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Which requests a rule acts on; every field given must agree. */
export interface FaultMatch {
  readonly method?: string;
  readonly httpMethod?: HttpMethod;
  readonly tool?: string;
  readonly session?: boolean;
  readonly times?: number;
  readonly nth?: number;
}

export type FaultAction =
  | {
      readonly type: 'status';
      readonly status: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly body?: unknown;
    }
  | { readonly type: 'reset-before' }
  | { readonly type: 'reset-after' }
  | { readonly type: 'drop-sse-after'; readonly events: number; readonly how?: 'end' | 'reset' }
  | { readonly type: 'expire-session' }
  | { readonly type: 'malformed'; readonly kind: 'not-json' | 'not-jsonrpc' | 'sse-bad-data' }
  | { readonly type: 'oversized'; readonly bytes: number; readonly as?: 'json' | 'sse' }
  | { readonly type: 'gzip'; readonly bytes: number; readonly as?: 'json' | 'sse' | 'json-error' }
  | { readonly type: 'stall'; readonly ms?: number; readonly phase?: 'before-headers' | 'after-headers' }
  | { readonly type: 'hold-open'; readonly commentEveryMs?: number }
  | { readonly type: 'refuse-and-stall'; readonly status?: number }
  | { readonly type: 'redirect'; readonly status?: 301 | 302 | 303 | 307 | 308; readonly location?: string };

export interface FaultRule {
  readonly match?: FaultMatch;
  readonly action: FaultAction;
}

export interface FaultScript {
  readonly inner?: 'resumable' | 'stateful' | 'stateless';
  readonly rules?: readonly FaultRule[];
}

/** One request as a scenario saw it; header names are lower-case. */
export interface SeenRequest {
  readonly httpMethod: HttpMethod;
  readonly path: string;
  readonly method?: string;
  readonly id?: string | number;
  readonly headers: Readonly<Record<string, string>>;
  readonly rule?: number | null;
}

export interface ScenarioStats {
  readonly requests: readonly SeenRequest[];
  readonly methods: Readonly<Record<string, number>>;
  /** `tools/call` requests that reached the MCP server. */
  readonly executions: number;
  readonly executed: Readonly<Record<string, number>>;
  readonly redirected: readonly SeenRequest[];
  readonly rules: readonly { readonly matched: number; readonly applied: number }[];
  readonly sessions: number;
}

/** The in-process fault handler of fault-server.mjs. */
export interface FaultHandler {
  readonly handler: (request: Request) => Promise<Response>;
  createScenario(script?: FaultScript): { id: string; path: string };
  stats(id: string): ScenarioStats | undefined;
  close(): Promise<void>;
}

/** Starts the modes server and the fault server on two origins (serve.mjs). */
export const startHttpServers: () => Promise<HttpServers> = startHttpServersJs;

/** A fault handler of our own, for tests that watch its connections (fault-server.mjs). */
export const createFaultHandler: () => FaultHandler = createFaultHandlerJs;

/** Serves a web-standard handler on node:http, resets included (node-adapter.mjs). */
export const toNodeListener: (
  handler: (request: Request) => Promise<Response>,
) => (req: IncomingMessage, res: ServerResponse) => void = toNodeListenerJs;
