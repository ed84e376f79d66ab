import type { Tool, ToolResult } from '@mcp/core';
import {
  AppHost,
  type AppHostContext,
  type AppHostEvent,
  type AppHostState,
  type AppLimits,
  type AppPolicy,
  AppViewError,
} from '@mcp/core/apps';
import type { Connection } from '@mcp/core/connections';
import type { CallToolResult } from '@mcp/core/protocol';
import { createElement as h, type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useMcp } from './use-mcp.js';
import { sameKey, ViewSlot } from './view-slot.js';

/** The tool call an {@link McpAppView} shows, as the chat knows it so far. */
export interface McpAppToolCall {
  /** The tool's name on its server (its MCP name, not a catalogue's prefixed one). */
  readonly name: string;
  /** The arguments: partial while `streaming`, complete after. */
  readonly arguments?: Record<string, unknown>;
  /** True while the model is still writing the arguments: they go to the view as `tool-input-partial`. */
  readonly streaming?: boolean;
  /** The call's result, once it finished. */
  readonly result?: CallToolResult | ToolResult;
  /** The call was aborted or failed: true, or the reason the view is told. */
  readonly cancelled?: boolean | string;
  /** The call's id (the model's tool call id, or the JSON-RPC id), passed to the view in `toolInfo`. */
  readonly id?: string | number;
}

/** Props of {@link McpAppView}. */
export interface McpAppViewProps {
  /** The name of the tool's server in the nearest {@link McpProvider}'s set. */
  readonly server: string;
  /**
   * The call: a new `name` or `id` mounts a new view; new `arguments`,
   * `streaming`, `result` and `cancelled` go to the view shown.
   */
  readonly toolCall: McpAppToolCall;
  /** The tool's definition, when the app has it (a catalogue entry's `tool`); else one `tools/list` finds it. */
  readonly tool?: Tool;
  /**
   * The sandbox proxy page (`@mcp/core/dist/apps/sandbox-proxy.html`, hosted by
   * the app on an origin of its own). Read when a view mounts.
   */
  readonly sandboxUrl: string | URL;
  /**
   * What the view may ask (`@mcp/core/apps`'s `AppPolicy`; each hook absent has
   * its safe default). Which hooks there are is read when a view mounts; each
   * call goes to the hook of the latest render.
   */
  readonly policy?: AppPolicy;
  /** Takes the view's `ui/message` into the chat as the user's message (the same as `policy.onMessage`; this one wins). */
  readonly onMessage?: AppPolicy['onMessage'];
  /**
   * Where the view is shown (theme, display mode, container dimensions…). The
   * view starts with `platform: 'web'`, `displayMode: 'inline'`, the browser's
   * locale and time zone, and this over them; a change is sent to the view.
   */
  readonly hostContext?: AppHostContext;
  /** Who the host is, in the view's `ui/initialize` answer. Read when a view mounts. */
  readonly hostInfo?: {
    /** The host application's name. */
    readonly name: string;
    /** The host application's version. */
    readonly version: string;
  };
  /** Bounds on the view (`AppLimits`; each default a named export of `@mcp/core/apps`). Read when a view mounts. */
  readonly limits?: AppLimits;
  /** Told when the view is refused or torn down for breaking a rule; the error element shows it too. */
  readonly onError?: (error: AppViewError) => void;
  /** Every event of the view's host: state changes, the error, size changes, the view asking to close. */
  readonly onEvent?: (event: AppHostEvent) => void;
  /** What replaces a view that failed (default: a short `role="alert"` paragraph naming the error). */
  readonly fallback?: ReactNode | ((error: AppViewError) => ReactNode);
  /** The class of the element the component renders. */
  readonly className?: string;
}

const noSubscription = () => () => {};

/**
 * A tool's MCP Apps view, inline: an `AppHost` (`@mcp/core/apps`) mounted in
 * an element this component owns, for a server of the nearest
 * {@link McpProvider}'s set. The view mounts once the server is ready, hears
 * the call's arguments (partial while `toolCall.streaming`), then its result
 * or its cancellation as the props bring them, and each `hostContext` change.
 *
 * On unmount the view gets `ui/resource-teardown` and up to
 * `limits.teardownTimeoutMs` to answer before its iframe goes (the host waits;
 * React's unmount does not). StrictMode's extra mount keeps the one view. A
 * view that fails (never initialized, flooded, sent too much, broke the
 * sandbox) is replaced by `fallback`; the rest of the page goes on. During
 * server rendering it renders nothing and touches no browser API.
 *
 * ```tsx
 * <McpAppView
 *   server="weather"
 *   toolCall={{ name: 'show-forecast', arguments: { city: 'Paris' }, result }}
 *   sandboxUrl="https://sandbox.example.com/sandbox-proxy.html"
 *   onMessage={(message) => sendToChat(message.content)}
 *   hostContext={{ theme: 'dark' }}
 * />
 * ```
 */
export function McpAppView(props: McpAppViewProps): ReactNode {
  const { server, toolCall, sandboxUrl, hostContext, className } = props;
  const latest = useRef(props);
  const onClient = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [slot] = useState(() => new ViewSlot());
  const [shown, setShown] = useState<{ host: AppHost; state: AppHostState; error?: AppViewError }>();
  const [failure, setFailure] = useState<{ key: readonly unknown[]; error: AppViewError }>();

  const mcp = useMcp(server);
  // The connection once it was ready: a later reconnect keeps the view, a new connection mounts a new one.
  const [ready, setReady] = useState<Connection>();
  if (mcp.status === 'ready' && mcp.connection !== undefined && mcp.connection !== ready) setReady(mcp.connection);
  const connection = ready !== undefined && ready === mcp.connection ? ready : undefined;
  const sandbox = String(sandboxUrl);
  const key = [connection, toolCall.name, toolCall.id, sandbox] as const;

  useEffect(() => {
    latest.current = props;
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key's parts are the dependencies
  useEffect(() => {
    if (!onClient || connection === undefined) return;
    let host: AppHost;
    try {
      host = slot.acquire(key, (container) => makeHost(connection, container, latest, (event) => heard(event)));
    } catch (error) {
      const refused = error instanceof AppViewError ? error : new AppViewError('load_failed', String(error));
      setFailure({ key, error: refused });
      latest.current.onError?.(refused);
      return;
    }
    const heard = (event: AppHostEvent) => {
      if (slot.host !== host) return;
      if (event.type === 'state') setShown((now) => ({ ...(now?.host === host && now), host, state: event.state }));
      if (event.type === 'error') {
        setShown({ host, state: 'failed', error: event.error });
        latest.current.onError?.(event.error);
      }
      latest.current.onEvent?.(event);
    };
    setShown((now) => (now?.host === host ? now : { host, state: host.state }));
    // The same promise for a host StrictMode's second run kept; a failure arrives as the error event.
    host.mount().catch(() => {});
    return () => slot.release();
  }, [onClient, ...key]);

  // What the call brings, as it brings it; the host sends each notification at most as the spec allows.
  const sentPartial = useRef<{ host: AppHost; args: unknown }>(undefined);
  const { arguments: args, streaming, result, cancelled } = toolCall;
  const host = shown?.host;
  useEffect(() => {
    if (host === undefined || host !== slot.host) return;
    if (args !== undefined && streaming) {
      const last = sentPartial.current;
      if (last?.host !== host || last.args !== args) host.sendToolInputPartial(args);
      sentPartial.current = { host, args };
    } else if (args !== undefined) host.sendToolInput(args);
    if (result !== undefined) host.sendToolResult(result);
    else if (cancelled) host.sendToolCancelled(typeof cancelled === 'string' ? cancelled : undefined);
  }, [host, slot, args, streaming, result, cancelled]);

  const contextKey = JSON.stringify(hostContext ?? {});
  // biome-ignore lint/correctness/useExhaustiveDependencies: contextKey stands for hostContext
  useEffect(() => {
    if (host !== undefined && host === slot.host && hostContext !== undefined) host.setHostContext(hostContext);
  }, [host, slot, contextKey]);

  if (!onClient) return null;
  const refused = failure && sameKey(failure.key, key) ? failure.error : undefined;
  const error = refused ?? (shown?.host === slot.host ? shown?.error : undefined);
  const state = error ? 'failed' : (shown?.state ?? 'idle');
  return h(
    'div',
    { className, 'data-mcp-app-view': toolCall.name, 'data-state': state },
    error ? fallbackFor(props.fallback, error) : null,
    h('div', { ref: slot.place }),
  );
}

/** The host of one view, with the props of the render that mounts it; its hooks read the latest props. */
function makeHost(
  connection: Connection,
  container: HTMLDivElement,
  latest: { readonly current: McpAppViewProps },
  onEvent: (event: AppHostEvent) => void,
): AppHost {
  const { toolCall, tool, sandboxUrl, hostContext, hostInfo, limits } = latest.current;
  return new AppHost({
    connection,
    toolCall: { name: toolCall.name, ...(toolCall.id !== undefined && { id: toolCall.id }) },
    ...(tool && { tool }),
    container,
    sandbox: { url: sandboxUrl },
    hostContext: {
      platform: 'web',
      displayMode: 'inline',
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...hostContext,
    },
    ...(hostInfo && { hostInfo }),
    ...(limits && { limits }),
    policy: livePolicy(() => {
      const { policy, onMessage } = latest.current;
      return { ...policy, ...(onMessage && { onMessage }) };
    }),
    onEvent,
  });
}

const HOOKS = [
  'confirmToolCall',
  'confirmResourceRead',
  'onMessage',
  'openLink',
  'requestDisplayMode',
  'updateModelContext',
  'onLog',
] as const;

/**
 * A policy with the hooks `read()` has now, each calling the hook `read()`
 * has when the view asks: an inline function per render neither remounts the
 * view nor goes stale. A hook gone since refuses (the host takes a throw as no).
 */
function livePolicy(read: () => AppPolicy): AppPolicy {
  const first = read();
  const policy: Record<string, unknown> = first.permissions ? { permissions: first.permissions } : {};
  for (const name of HOOKS) {
    if (first[name] === undefined) continue;
    policy[name] = (value: never) => {
      const hook = read()[name] as ((value: never) => unknown) | undefined;
      if (hook === undefined) throw new Error(`${name} was removed`);
      return hook(value);
    };
  }
  return policy as AppPolicy;
}

function fallbackFor(fallback: McpAppViewProps['fallback'], error: AppViewError): ReactNode {
  if (typeof fallback === 'function') return fallback(error);
  if (fallback !== undefined) return fallback;
  return h('p', { role: 'alert', 'data-mcp-app-error': error.code }, `This app could not be shown: ${error.message}`);
}
