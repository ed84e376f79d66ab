import * as v from 'valibot';
import { CompleteResultSchema } from '../protocol/completion.js';
import { EmptyResultSchema } from '../protocol/ping.js';
import { GetPromptResultSchema, ListPromptsResultSchema } from '../protocol/prompts.js';
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
} from '../protocol/resources.js';
import { CallToolResultSchema, ListToolsResultSchema } from '../protocol/tools.js';
import type { Page } from './pagination.js';
import { resultParser } from './parse-result.js';
import { toCompletion, toPromptResult, toReadResourceResult, toToolResult } from './result-mappers.js';

/** The result parser of each method the Client sends: validate at the edge, then map. */
export const parseEmpty = resultParser('result', EmptyResultSchema, () => undefined);
export const parseCallTool = resultParser('tools/call', CallToolResultSchema, toToolResult);
export const parseRead = resultParser('resources/read', ReadResourceResultSchema, toReadResourceResult);
export const parsePrompt = resultParser('prompts/get', GetPromptResultSchema, toPromptResult);
export const parseComplete = resultParser('completion/complete', CompleteResultSchema, toCompletion);
export const parseTools = resultParser('tools/list', ListToolsResultSchema, (r) => page(r.tools, r.nextCursor));
export const parseResources = resultParser('resources/list', ListResourcesResultSchema, (r) =>
  page(r.resources, r.nextCursor),
);
export const parseTemplates = resultParser('resources/templates/list', ListResourceTemplatesResultSchema, (r) =>
  page(r.resourceTemplates, r.nextCursor),
);
export const parsePrompts = resultParser('prompts/list', ListPromptsResultSchema, (r) => page(r.prompts, r.nextCursor));
/** Any result object, kept whole (`Client.request`). */
export const parseObject = (method: string) => resultParser(method, v.looseObject({}));

/** A listen stream's final result (the server ended it); its content does not matter. */
export const parseAny = (raw: unknown): unknown => raw;

function page<T>(items: readonly T[], nextCursor: string | undefined): Page<T> {
  return { items, nextCursor };
}
