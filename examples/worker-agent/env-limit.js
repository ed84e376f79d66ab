/**
 * A bound taken from a variable: `value` when it is a positive integer, else `fallback` (the documented default).
 * @param {string | undefined} value
 * @param {number} fallback
 */
export function envLimit(value, fallback) {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}
