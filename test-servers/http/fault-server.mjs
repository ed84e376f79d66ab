import { withCors } from './cors.mjs';
import { createFaultScenario } from './fault-scenario.mjs';
import { parseFaultScript } from './fault-script.mjs';

/**
 * @typedef {object} FaultHandler
 * @property {(request: Request) => Promise<Response>} handler web-standard, CORS included
 * @property {string | undefined} otherOrigin the origin redirects point to (set it once the second listener is up)
 * @property {(script?: unknown) => { id: string, path: string }} createScenario the control API, in process
 * @property {(id: string) => import('./fault-scenario.mjs').ScenarioStats | undefined} stats
 * @property {() => Promise<void>} close ends every scenario, stall and held stream
 */

/**
 * The scriptable fault server of DESIGN.md: real MCP servers behind scripted
 * network failures, as a plain `(Request) => Response` handler. Control API:
 *
 * - `POST /faults` with a script (see fault-script.mjs) → 201 `{ id, mcp, stats }`
 * - `/faults/<id>/mcp`: the MCP endpoint under that script
 * - `GET /faults/<id>/stats`: requests, headers, per-method counts, executions
 * - `/faults/<id>/target`: where redirects point (on `otherOrigin`), recorded
 * - `DELETE /faults/<id>`: ends the scenario
 *
 * Every path also works under `/no-cors/`, without CORS headers.
 * @param {{ otherOrigin?: string }} [options]
 * @returns {FaultHandler}
 */
export function createFaultHandler(options = {}) {
  /** @type {Map<string, ReturnType<typeof createFaultScenario>>} */
  const scenarios = new Map();
  /** @type {Set<AbortController>} stalled and held-open requests */
  const held = new Set();
  let counter = 0;

  /** @type {FaultHandler} */
  const faults = {
    otherOrigin: options.otherOrigin,
    handler: withCors((request) => route(request)),
    createScenario(script = {}) {
      const parsed = parseFaultScript(script);
      if (!parsed.ok) throw new TypeError(`Invalid fault script: ${parsed.message}`);
      counter += 1;
      const id = `s${counter}`;
      scenarios.set(id, createFaultScenario(id, parsed.script, { otherOrigin: () => faults.otherOrigin, held }));
      return { id, path: `/faults/${id}/mcp` };
    },
    stats: (id) => scenarios.get(id)?.stats(),
    async close() {
      for (const controller of [...held]) controller.abort();
      const all = [...scenarios.values()];
      scenarios.clear();
      await Promise.allSettled(all.map((scenario) => scenario.close()));
    },
  };

  /** @param {Request} request */
  async function route(request) {
    const url = new URL(request.url);
    if (url.pathname === '/faults' && request.method === 'POST') return create(request, url.origin);
    if (url.pathname === '/health') return text(200, 'ok');
    const [, root, id = '', leaf, ...rest] = url.pathname.split('/');
    const scenario = scenarios.get(id);
    if (root !== 'faults' || scenario === undefined || rest.length > 0) return text(404, 'Unknown fault scenario');
    if (leaf === 'mcp') return scenario.serve(request);
    if (leaf === 'target') return scenario.target(request);
    if (leaf === 'stats' && request.method === 'GET') return Response.json(scenario.stats());
    if (leaf === undefined && request.method === 'DELETE') {
      scenarios.delete(id);
      await scenario.close();
      return new Response(null, { status: 204 });
    }
    return text(404, 'Not found');
  }

  /**
   * @param {Request} request
   * @param {string} origin
   */
  async function create(request, origin) {
    let script;
    try {
      script = JSON.parse((await request.text()) || '{}');
    } catch {
      return text(400, 'The fault script must be JSON');
    }
    try {
      const { id, path } = faults.createScenario(script);
      return Response.json({ id, mcp: `${origin}${path}`, stats: `${origin}/faults/${id}/stats` }, { status: 201 });
    } catch (error) {
      return text(400, error instanceof Error ? error.message : String(error));
    }
  }

  return faults;
}

/**
 * @param {number} status
 * @param {string} body
 */
function text(status, body) {
  return new Response(body, { status, headers: { 'content-type': 'text/plain' } });
}
