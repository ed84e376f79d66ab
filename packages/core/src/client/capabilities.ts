import type { ClientCapabilities, ServerCapabilities } from '../protocol/capabilities.js';
import type { ClientOptions, SamplingOptions } from './options.js';

/**
 * The capabilities the client declares: each only when the handler behind it was
 * given, so the server never asks for something nobody will answer.
 */
export function clientCapabilities(options: ClientOptions): ClientCapabilities {
  const { sampling, elicitation, roots, capabilities } = options;
  const url = typeof elicitation === 'object' && elicitation.url === true;
  return {
    ...capabilities,
    ...(sampling && { sampling: (sampling as SamplingOptions).tools === true ? { tools: {} } : {} }),
    ...(elicitation && { elicitation: url ? { form: {}, url: {} } : { form: {} } }),
    ...(roots && { roots: { listChanged: typeof roots === 'function' } }),
  };
}

/**
 * 2026-07-28 has no `roots/list_changed`: roots are declared as `{}` there
 * (§1.2). Every request may be answered with a task: the Tasks extension
 * (SEP-2663, `TASKS_EXTENSION`) is declared too, as it must be, per request.
 */
export function modernCapabilities(capabilities: ClientCapabilities): ClientCapabilities {
  return {
    ...capabilities,
    ...(capabilities.roots && { roots: {} }),
    extensions: { ...capabilities.extensions, 'io.modelcontextprotocol/tasks': {} },
  };
}

/** Server capabilities a method needs, as a dotted path. */
export type CapabilityPath = 'tools' | 'resources' | 'resources.subscribe' | 'prompts' | 'completions' | 'logging';

/** Whether the server declared `path`; methods check it before anything is sent. */
export function hasCapability(capabilities: ServerCapabilities | undefined, path: CapabilityPath): boolean {
  if (!capabilities) return false;
  if (path === 'resources.subscribe') return capabilities.resources?.subscribe === true;
  return isObject(capabilities[path]);
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;
