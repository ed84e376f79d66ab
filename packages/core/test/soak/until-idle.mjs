/**
 * Resolves when `work` does, or once `progress()` has not moved for `stuckMs`:
 * a call that never settles must show up in a soak's report, not hang the run.
 * @param {Promise<unknown>} work
 * @param {() => number} progress
 * @param {number} stuckMs
 * @returns {Promise<boolean>} whether `work` finished
 */
export async function untilIdle(work, progress, stuckMs) {
  let done = false;
  const finished = work.then(() => {
    done = true;
  });
  let last = progress();
  let since = Date.now();
  while (!done) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, Math.min(500, stuckMs))))]);
    clearTimeout(timer);
    if (progress() !== last) {
      last = progress();
      since = Date.now();
    } else if (!done && Date.now() - since > stuckMs) {
      return false;
    }
  }
  return true;
}
