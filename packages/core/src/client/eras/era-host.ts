import type { Answering } from '../answering/index.js';
import type { ClientOptions } from '../options.js';
import type { RpcChannel } from '../rpc/rpc-channel.js';
import type { SessionRequests } from '../session-requests.js';

/**
 * What an era may use of the Session it serves. The Session builds one host and
 * hands it to every era it constructs, so an era needs nothing else to do its
 * part: a new era is a class whose constructor takes this host. Its `request`
 * is the Session's one path (gated by `capability`, cached, through the era,
 * renewed once), for what an era sends as a method of the Session's own.
 */
export interface EraHost extends SessionRequests {
  /** The options the app gave the client. */
  readonly options: ClientOptions;
  /** The JSON-RPC channel to the server, the one every era sends on. */
  readonly channel: RpcChannel;
  /** The transport cancels a request by closing its stream (HTTP): no `notifications/cancelled` then. */
  readonly cancelsByClosing: boolean;
  /** This session's part of the answering module, which loads the first time it is asked for. */
  answering(): Promise<Answering>;
  /** The same, if it has loaded already; asking never loads it. */
  loadedAnswering(): Answering | undefined;
  /**
   * The app now takes what the server sends on its own: the transport opens a
   * stream for it where it has one (`TransportHooks.openServerStream`), and a
   * renewed session says so.
   */
  openServerStream(): void;
}
