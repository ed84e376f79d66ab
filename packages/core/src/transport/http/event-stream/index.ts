/*
 * Reading SSE bodies into inbound messages (HTML, server-sent events; MCP
 * 2025-03-26 on): eventsource-parser, the limits on what an event may buffer,
 * and the rules for priming events, event ids and `retry:`. Loaded on demand
 * (on-demand.ts): this file is the import() target, and what it exports is the
 * module's whole surface.
 */
export { type EventStreamTarget, readMessages, type SseCursor, type SseEvent } from './read-messages.js';
