// The Worker as built for deployment, with its Durable Object class wrapped to
// write down every request that reaches an object (its path and the object's
// id, in the REACHED KV namespace) before the real object handles it. The
// tests read the namespace to prove a refused request touched no object.
import { AgentObject as Agent } from '../agent-object.js';

export { default } from '../worker.js';

export class AgentObject extends Agent {
  /** @param {Request} request */
  async fetch(request) {
    const entry = { path: new URL(request.url).pathname, object: this.ctx.id.toString() };
    await this.env.REACHED.put(crypto.randomUUID(), JSON.stringify(entry));
    return super.fetch(request);
  }
}
