import { withCors } from '../http/cors.mjs';
import { createAuthScenario } from './auth-scenario.mjs';

/**
 * The control API of the auth test servers (a web handler, CORS on, so a
 * browser test can drive it too):
 *
 * - `POST /scenarios` + config (scenario-config.mjs) → 201 `{ id, mcp, issuer, as, prm, stats }`
 * - `GET /scenarios/<id>` → the same; `GET /scenarios/<id>/stats` → the request log
 * - `POST /scenarios/<id>/config` + changes → 200 the info (fields given replace the current ones)
 * - `POST /scenarios/<id>/expire-tokens` → 204, every access token issued so far expires
 * - `DELETE /scenarios/<id>` → 204, both listeners closed
 * - `POST /documents/<name>` + any JSON → 201 `{ url }`; `GET /documents/<name>` serves it
 *   (a client metadata document for CIMD, a JWKS for `jwks_uri`)
 * @param {(request: Request) => Promise<Response>} inner the reference servers (http/modes.mjs)
 */
export function createAuthControl(inner) {
  /** @type {Map<string, import('./auth-scenario.mjs').AuthScenario>} */
  const scenarios = new Map();
  /** @type {Map<string, unknown>} */
  const documents = new Map();
  let counter = 0;

  /**
   * Creates a scenario in process.
   * @param {unknown} [config]
   */
  async function createScenario(config = {}) {
    counter += 1;
    const id = `a${counter}`;
    const scenario = await createAuthScenario(id, config, inner);
    scenarios.set(id, scenario);
    return scenario;
  }

  /** @param {Request} request */
  async function route(request) {
    const url = new URL(request.url);
    const [, root = '', id = '', leaf, ...rest] = url.pathname.split('/');
    if (url.pathname === '/health') return new Response('ok');
    if (rest.length > 0) return notFound();
    if (root === 'documents' && id !== '' && leaf === undefined) {
      if (request.method === 'POST') {
        const body = await readJson(request);
        if (body === undefined) return new Response('The body is not JSON', { status: 400 });
        documents.set(id, body);
        return Response.json({ url: url.href }, { status: 201 });
      }
      return documents.has(id) ? Response.json(documents.get(id)) : notFound();
    }
    if (root !== 'scenarios') return notFound();
    if (id === '' && request.method === 'POST') {
      const config = await readJson(request);
      if (config === undefined) return new Response('The body is not JSON', { status: 400 });
      try {
        const scenario = await createScenario(config ?? {});
        return Response.json(describe(scenario, url.origin), { status: 201 });
      } catch (error) {
        return new Response(error instanceof Error ? error.message : String(error), { status: 400 });
      }
    }
    const scenario = scenarios.get(id);
    if (scenario === undefined) return notFound();
    if (leaf === undefined && request.method === 'GET') return Response.json(describe(scenario, url.origin));
    if (leaf === undefined && request.method === 'DELETE') {
      scenarios.delete(id);
      await scenario.close();
      return new Response(null, { status: 204 });
    }
    if (leaf === 'stats' && request.method === 'GET') return Response.json(scenario.stats());
    if (leaf === 'expire-tokens' && request.method === 'POST') {
      scenario.expireTokens();
      return new Response(null, { status: 204 });
    }
    if (leaf === 'config' && request.method === 'POST') {
      const changes = await readJson(request);
      if (changes === undefined) return new Response('The body is not JSON', { status: 400 });
      try {
        scenario.update(changes ?? {});
      } catch (error) {
        return new Response(error instanceof Error ? error.message : String(error), { status: 400 });
      }
      return Response.json(describe(scenario, url.origin));
    }
    return notFound();
  }

  return {
    handler: withCors(route),
    createScenario,
    /**
     * Serves a JSON document at `<control>/documents/<name>`.
     * @param {string} name
     * @param {unknown} document
     */
    setDocument: (name, document) => void documents.set(name, document),
    async close() {
      const all = [...scenarios.values()];
      scenarios.clear();
      await Promise.allSettled(all.map((scenario) => scenario.close()));
    },
  };
}

/**
 * @param {import('./auth-scenario.mjs').AuthScenario} scenario
 * @param {string} origin the control origin
 */
function describe(scenario, origin) {
  const info = scenario.info();
  return { ...info, stats: `${origin}/scenarios/${info.id}/stats` };
}

/** @param {Request} request */
async function readJson(request) {
  const text = await request.text();
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function notFound() {
  return new Response('Not found', { status: 404 });
}
