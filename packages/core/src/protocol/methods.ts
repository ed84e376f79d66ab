/** Every request method a client sends or answers, across all revisions. */
export const RequestMethod = {
  /** Legacy handshake. */
  Initialize: 'initialize',
  /** 2026-07-28 capability and version discovery. */
  Discover: 'server/discover',
  /** Either direction, legacy only. */
  Ping: 'ping',
  ListTools: 'tools/list',
  CallTool: 'tools/call',
  ListResources: 'resources/list',
  ListResourceTemplates: 'resources/templates/list',
  ReadResource: 'resources/read',
  /** Legacy; 2026-07-28 uses `subscriptions/listen`. */
  Subscribe: 'resources/subscribe',
  Unsubscribe: 'resources/unsubscribe',
  ListPrompts: 'prompts/list',
  GetPrompt: 'prompts/get',
  Complete: 'completion/complete',
  /** Legacy; 2026-07-28 puts the level in `_meta`. */
  SetLevel: 'logging/setLevel',
  /** 2026-07-28 change-notification stream. */
  SubscriptionsListen: 'subscriptions/listen',
  /** Server → client (legacy) or MRTR input request (2026-07-28). */
  CreateMessage: 'sampling/createMessage',
  Elicit: 'elicitation/create',
  ListRoots: 'roots/list',
  /** Tasks: 2025-11-25 core (`get`, `result`, `list`, `cancel`) and 2026-07-28 extension (`get`, `update`, `cancel`). */
  GetTask: 'tasks/get',
  GetTaskResult: 'tasks/result',
  ListTasks: 'tasks/list',
  CancelTask: 'tasks/cancel',
  UpdateTask: 'tasks/update',
} as const;
export type RequestMethod = (typeof RequestMethod)[keyof typeof RequestMethod];
