import type { AppHostOptions, AppHostState } from './app-host-options.js';
import { AppViewError } from './app-view-error.js';
import type { AppHostContext } from './host-context.js';

/**
 * The host side of one MCP Apps view (`io.modelcontextprotocol/ui`, 2026-01-26):
 * reads the tool's `ui://` resource, mounts it through a sandbox proxy on another
 * origin, speaks the view's JSON-RPC over `postMessage`, and holds the view to
 * `policy` and `limits`. Framework-neutral: one instance per view.
 */
export class AppHost {
  readonly #options: AppHostOptions;
  #state: AppHostState = 'idle';

  /** Checks the sandbox URL; nothing is read or mounted until `mount()`. */
  constructor(options: AppHostOptions) {
    this.#options = options;
  }

  /** Where the host is in its life. */
  get state(): AppHostState {
    return this.#state;
  }

  /** Reads the resource, mounts the view and resolves once it is initialized. */
  mount(): Promise<void> {
    return Promise.reject(new AppViewError('load_failed', `AppHost for ${this.#options.toolCall.name}: not built yet`));
  }

  /** Sends streamed, incomplete tool arguments (held until the view is initialized). */
  sendToolInputPartial(_args: Record<string, unknown>): void {}

  /** Sends the complete tool arguments, once. */
  sendToolInput(_args: Record<string, unknown>): void {}

  /** Updates the host context and sends what changed. */
  setHostContext(_context: AppHostContext): void {}

  /** Asks the view to tear down, waits (bounded), then removes it. */
  teardown(_reason?: string): Promise<void> {
    return Promise.resolve();
  }
}
