/** Constants of the apps test server (server.mjs) a test compares against. */

/** `serverInfo` of the apps test server. */
export const SERVER_INFO: { name: string; version: string };
/** The plain-text resource the counter view reads. */
export const GREETING_URI: string;
/** Its text. */
export const GREETING: string;
/** What `secret-model-only` returns: a view must never see it. */
export const SECRET: string;
/** The hostile tools by name; `view` is the file under views/hostile/. */
export const HOSTILE_TOOLS: Record<string, { view: string; description: string }>;
