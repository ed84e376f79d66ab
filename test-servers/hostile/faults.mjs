import { BOMB_FAULTS } from './bombs.mjs';
import { FLOOD_FAULTS } from './flood-faults.mjs';
import { FRAME_FAULTS } from './frame-faults.mjs';
import { PROTOCOL_FAULTS } from './protocol-faults.mjs';
import { REDIRECT_FAULTS } from './redirect-faults.mjs';
import { SHAPE_FAULTS } from './shape-faults.mjs';
import { SSE_FAULTS } from './sse-faults.mjs';
import { STALL_FAULTS } from './stall-faults.mjs';
import { STORM_FAULTS } from './storm-faults.mjs';
import { URL_FAULTS } from './url-faults.mjs';

/**
 * Every HTTP switch by name. A fault may take over `tools/call hostile`
 * (`call`), `tools/list` (`list`), the GET stream (`get`), the handshake
 * (`handshake`: `server/discover` and `initialize`; undefined leaves one healthy) and, in the
 * 2024-11-05 HTTP+SSE era, the session stream (`sse`); everything else
 * gets the healthy answer. Each has a `family` and a one-line `summary`
 * (what README.md and the suite's table show).
 */
export const HTTP_FAULTS = Object.freeze({
  healthy: { family: 'baseline', summary: 'no misbehaviour' },
  ...BOMB_FAULTS,
  ...FRAME_FAULTS,
  ...SHAPE_FAULTS,
  ...FLOOD_FAULTS,
  ...STALL_FAULTS,
  ...STORM_FAULTS,
  ...REDIRECT_FAULTS,
  ...URL_FAULTS,
  ...PROTOCOL_FAULTS,
  ...SSE_FAULTS,
});
