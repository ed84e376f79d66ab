/**
 * What the server offers beyond calling a tool, a module the Session loads the
 * first time one of its parts is needed: resources, prompts and completion (the
 * bodies of the Client's methods and their decoders). A program that only lists
 * and calls tools never downloads it. (The TTL cache of listings is the
 * Session's, in the entry; the `x-mcp-header` rules are their own module.)
 */
import { ResourceNotFoundError } from '../../errors/resource-not-found-error.js';
import { RpcError } from '../../errors/rpc-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import type { Prompt } from '../../protocol/prompts.js';
import type { Resource, ResourceTemplate } from '../../protocol/resources.js';
import { type CapabilityPath, hasCapability } from '../capabilities.js';
import type { ServerIdentity } from '../eras/era.js';
import type { CallOptions } from '../options.js';
import type { Page } from '../pagination.js';
import {
  type Completion,
  type CompletionRequest,
  type PromptResult,
  parseComplete,
  parsePrompt,
  parsePrompts,
  parseRead,
  parseResources,
  parseTemplates,
  type ReadResourceResult,
} from '../results/catalogue.js';
import type { SessionRequests } from '../session-requests.js';

/** What the catalogue asks of the Session: its request path, what the server is, and paginated lists. */
export interface CatalogueHost extends SessionRequests {
  list<T>(
    method: string,
    capability: CapabilityPath,
    parse: (raw: unknown) => Page<T>,
    options?: CallOptions,
  ): Promise<T[]>;
}

/** Every resource, following pagination to the end. */
export function listResources(host: CatalogueHost, options?: CallOptions): Promise<Resource[]> {
  return host.list('resources/list', 'resources', parseResources, options);
}

/** Every resource template, following pagination to the end. */
export function listResourceTemplates(host: CatalogueHost, options?: CallOptions): Promise<ResourceTemplate[]> {
  return host.list('resources/templates/list', 'resources', parseTemplates, options);
}

/** Every prompt, following pagination to the end. */
export function listPrompts(host: CatalogueHost, options?: CallOptions): Promise<Prompt[]> {
  return host.list('prompts/list', 'prompts', parsePrompts, options);
}

/** `resources/read`; a missing resource is a `ResourceNotFoundError`, whichever code the server's era uses for it. */
export async function readResource(
  host: CatalogueHost,
  uri: string,
  options?: CallOptions,
): Promise<ReadResourceResult> {
  try {
    return await host.request('resources/read', 'resources', { uri }, parseRead, options);
  } catch (error) {
    const notFound =
      error instanceof RpcError &&
      (error.code === ErrorCode.ResourceNotFound || error.code === ErrorCode.InvalidParams);
    throw notFound ? new ResourceNotFoundError(uri, error) : error;
  }
}

/** `prompts/get`: a prompt rendered with `args`. */
export function getPrompt(
  host: CatalogueHost,
  name: string,
  args: Record<string, string> | undefined,
  options?: CallOptions,
): Promise<PromptResult> {
  return host.request('prompts/get', 'prompts', { name, ...(args && { arguments: args }) }, parsePrompt, options);
}

/** `completion/complete`, under the capability the server's revision offers it with. */
export function complete(host: CatalogueHost, request: CompletionRequest, options?: CallOptions): Promise<Completion> {
  const { ref, argument, context } = request;
  const params = {
    ref,
    argument: { name: argument.name, value: argument.value },
    ...(context?.arguments && { context: { arguments: context.arguments } }),
  };
  return host.request('completion/complete', completionCapability(host.server), params, parseComplete, options);
}

/** 2024-11-05 had no `completions` capability; servers then offered completion with prompts or resources. */
function completionCapability(server: ServerIdentity | undefined): CapabilityPath {
  const caps = server?.capabilities;
  if (server?.protocolVersion === '2024-11-05' && !hasCapability(caps, 'completions')) {
    return hasCapability(caps, 'prompts') ? 'prompts' : 'resources';
  }
  return 'completions';
}
