/**
 * Types of the hostile HTTP server (serve.mjs), for the TypeScript tests.
 * The switches are documented in README.md.
 */

export interface HostileRequest {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly tool?: string;
  readonly lastEventId?: string;
}

export interface HostileStats {
  /** Every request to the endpoint, in order. */
  readonly requests: HostileRequest[];
  /** Bytes the hostile answers wrote. */
  readonly bytesWritten: number;
  /** Responses the client walked away from before their end. */
  readonly clientGone: number;
  /** Requests that reached the other origin (after a redirect), with their lower-case headers. */
  readonly otherOrigin: {
    readonly httpMethod: string;
    readonly headers: Record<string, string | string[] | undefined>;
  }[];
}

export interface HostileEndpoint {
  readonly url: string;
  readonly stats: HostileStats;
}

export interface HostileServer {
  readonly url: string;
  readonly otherOrigin: string;
  endpoint(fault: string, era?: 'legacy' | 'modern' | 'sse'): HostileEndpoint;
  close(): Promise<void>;
}

export function startHostileServer(): Promise<HostileServer>;

/** What a gzip bomb decodes to. */
export const GZIP_BOMB_DECODED_BYTES: number;
/** Notifications `notification-flood` sends (at 10,000/s). */
export const FLOOD_NOTIFICATIONS: number;
/** Responses to unknown ids `id-churn` sends before the answer. */
export const CHURN_RESPONSES: number;
/** `not` levels of the `deep-schema` tool. */
export const DEEP_SCHEMA_LEVELS: number;
/** Tools on each page of `many-items`. */
export const ITEMS_PER_PAGE: number;
/** Characters of the one tool description on each page of `heavy-pages`. */
export const PAGE_DESCRIPTION_CHARS: number;
/** Input requests `input-flood` asks for by default. */
export const INPUT_FLOOD_REQUESTS: number;
/** Where endless writers stop even if the client never does. */
export const ENDLESS_CAP_BYTES: number;
/** Requests `request-flood` sends at once. */
export const REQUEST_FLOOD: number;
/** Sampling, elicitation, roots and ping requests `server-request-flood` sends at once by default. */
export const SERVER_REQUEST_FLOOD: number;
/** Tools on the one page of `huge-page`. */
export const HUGE_PAGE_TOOLS: number;
/** The response shapes `odd-response` sends, by `arguments.kind`. */
export const ODD_RESPONSES: Readonly<Record<string, string | null>>;
