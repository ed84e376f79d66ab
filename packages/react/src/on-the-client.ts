/**
 * A value, or the function that makes it on the client. What touches browser
 * APIs when it is made (a `LocalStorageStore` reads `navigator.locks`, a
 * redirect URI reads `location`) must not be made while rendering on the
 * server: give the function, and it runs in the effect that makes the set or
 * connection, which never runs there.
 */
export type OnTheClient<T> = T | (() => T);

/** The value, made now when it was given as a function. */
export function onTheClient<T extends object>(value: OnTheClient<T> | undefined): T | undefined {
  return typeof value === 'function' ? (value as () => T)() : value;
}
