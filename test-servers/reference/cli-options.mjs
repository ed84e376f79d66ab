import { parseArgs } from 'node:util';
import { DEFAULT_PAGE_SIZE } from './pagination.mjs';
import { PROFILES } from './server-info.mjs';

/**
 * @typedef {object} CliOptions
 * @property {'v1' | 'v2'} sdk which official SDK serves
 * @property {import('./server-info.mjs').Profile} profile
 * @property {number} pageSize
 * @property {boolean} trace write every received message to stderr (v1 only)
 * @property {boolean} noise write a non-JSON line to stdout before each message (v1 only)
 * @property {string | undefined} exitOnCall exit with code 3 when this tool is called (v1 only)
 */

/**
 * Reads `--sdk v1|v2`, `--profile full|minimal|structured|url-elicitation`, `--page-size N` and the fault
 * flags `--trace`, `--noise`, `--exit-on-call <tool>`, shared by
 * every entry script so they all take the same flags. Throws on anything else,
 * so a typo in a test's command line fails loudly instead of serving defaults.
 * @param {string[]} argv arguments after the script name
 * @returns {CliOptions}
 */
export function parseCliOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      sdk: { type: 'string', default: 'v1' },
      profile: { type: 'string', default: 'full' },
      'page-size': { type: 'string', default: String(DEFAULT_PAGE_SIZE) },
      trace: { type: 'boolean', default: false },
      noise: { type: 'boolean', default: false },
      'exit-on-call': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const { sdk } = values;
  const profile = /** @type {import('./server-info.mjs').Profile} */ (values.profile);
  const pageSize = Number(values['page-size']);
  if (sdk !== 'v1' && sdk !== 'v2') throw new Error(`--sdk must be v1 or v2, got ${sdk}`);
  if (!PROFILES.includes(profile)) {
    throw new Error(`--profile must be one of ${PROFILES.join(', ')}, got ${profile}`);
  }
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`--page-size must be a positive integer`);
  const { trace = false, noise = false } = values;
  return { sdk, profile, pageSize, trace, noise, exitOnCall: values['exit-on-call'] };
}
