/**
 * A module (or anything async) loaded the first time it is needed and shared
 * after that. Each on-demand module has exactly one such site, so a bundler
 * splits it off and a program that never needs it never downloads it: the
 * Session's `answering/`, `catalogue/`, `output-validation/` and `tasks/`, the
 * 2026-07-28 era's `x-mcp-header/`, the HTTP transport's `event-stream/`,
 * `recovery/` and HTTP+SSE fallback (`legacy-sse-session.ts`), OAuth's ofetch,
 * and a connection's OAuth (`connections/connection-oauth.ts`). Each costs an
 * async hop, a failed-load branch and a test of that branch, so each wraps a
 * feature a program can go without (ARCHITECTURE.md, "On-demand modules").
 * A load that fails is tried again next time (a flaky network must not poison
 * the feature for the life of the client).
 * Making one loads nothing, so the factory is marked free of side effects: a bundler
 * may drop one whose loader nothing calls.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
