// The Worker with its Durable Object class wrapped to write down every request
// that reaches an object (its path and the object's id, in the REACHED KV
// namespace) before the real object handles it. The tests read the namespace
// to prove a refused request touched no object.
import { McpTaskObject as TaskObject } from '../worker.js';

export { default } from '../worker.js';

export class McpTaskObject extends TaskObject {
  /** @param {Request} request */
  async fetch(request) {
    const entry = { path: new URL(request.url).pathname, object: this.ctx.id.toString() };
    await this.env.REACHED.put(crypto.randomUUID(), JSON.stringify(entry));
    return super.fetch(request);
  }
}
