/**
 * Runs inside workerd, imported ahead of the Worker under test (start-worker.ts
 * puts it first). workerd neither fails a request nor prints anything when a
 * promise rejection goes unhandled, in the Worker or in one of its Durable
 * Objects (they share its isolate), so this prints each one, on a line that
 * starts as start-worker.ts expects, for the test to assert that none came.
 */
globalThis.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason;
  const text = reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : String(reason);
  // One line, so that the line reader on the Node side gets the whole report at once.
  console.error(`unhandled rejection in workerd: ${text.replaceAll('\n', ' | ')}`);
});
