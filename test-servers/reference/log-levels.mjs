/**
 * The syslog severities MCP logging uses, least to most severe
 * (2025-11-25, server/utilities/logging).
 */
export const LOG_LEVELS = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

/**
 * Whether a message at `level` passes the minimum the client set with
 * `logging/setLevel`; everything passes until the client sets one.
 * @param {string} level
 * @param {string | undefined} minimum
 */
export function passesLevel(level, minimum) {
  return minimum === undefined || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(minimum);
}
