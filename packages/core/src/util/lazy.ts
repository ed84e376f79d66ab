/**
 * A module (or anything async) loaded the first time it is needed and shared
 * after that. The Client loads what few programs use — server-request handlers,
 * input rounds, subscriptions, resource and prompt parsers — this way, so a
 * bundler splits it off and a program that never needs it never downloads it.
 * A load that fails is tried again next time (a flaky network must not poison
 * the feature for the life of the client).
 */
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
