/**
 * `Symbol.asyncDispose` where the runtime has it, else the registry symbol that
 * TypeScript's `await using` and the polyfills look up, so disposal works on
 * runtimes that predate explicit resource management.
 */
export const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose');
