// A user's rate limit: a bucket of `perMinute` requests that refills evenly
// over a minute. It lives in the user's Durable Object, in memory: an object
// is evicted only after some idle time, by when a bucket has mostly refilled,
// so a new object starting full gives nobody much more.

export class TokenBucket {
  #capacity;
  #tokens;
  #last;
  #now;

  /**
   * @param {number} perMinute requests a minute, and the most taken at once
   * @param {() => number} [now] the clock, in ms
   */
  constructor(perMinute, now = Date.now) {
    this.#capacity = perMinute;
    this.#tokens = perMinute;
    this.#now = now;
    this.#last = now();
  }

  /** Takes one request's token: 0 when taken, else the ms until one is there (nothing taken). */
  take() {
    const now = this.#now();
    const perMs = this.#capacity / 60_000;
    this.#tokens = Math.min(this.#capacity, this.#tokens + (now - this.#last) * perMs);
    this.#last = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.#tokens) / perMs);
  }
}
