/** `setTimeout` treats anything above 2^31-1 ms as 1 ms; clamp to this instead of firing at once. */
export const MAX_TIMER = 2 ** 31 - 1;
