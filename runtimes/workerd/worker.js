/**
 * A Worker that runs one shared scenario per request, in workerd, with the
 * self-contained bundle (what a Worker deploys). `GET /?scenario=<name>&urls=<json>`
 * answers the scenario's outcome as JSON. Everything happens inside `fetch`:
 * workerd forbids I/O, timers and random values at global scope.
 */
import * as core from '../../packages/core/dist/core.bundle.js';
import { runScenario } from '../run-scenario.js';
import { failOnUnhandled } from './fail-on-unhandled.js';

export default {
  async fetch(request) {
    const query = new URL(request.url).searchParams;
    const urls = JSON.parse(query.get('urls') ?? '{}');
    return Response.json(await failOnUnhandled(() => runScenario(core, query.get('scenario') ?? '', urls)));
  },
};
