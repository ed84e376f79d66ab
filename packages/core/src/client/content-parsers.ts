import { CompleteResultSchema } from '../protocol/completion.js';
import { GetPromptResultSchema, ListPromptsResultSchema } from '../protocol/prompts.js';
import {
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
} from '../protocol/resources.js';
import { page } from './pagination.js';
import { resultParser } from './parse-result.js';
import { toCompletion, toPromptResult, toReadResourceResult } from './result-mappers.js';

/**
 * The result parsers of resources, prompts and completion. The Client loads this
 * module the first time it needs one, so a program that only lists and calls
 * tools never downloads these schemas and mappers.
 */
export const parseRead = resultParser('resources/read', ReadResourceResultSchema, toReadResourceResult);
export const parsePrompt = resultParser('prompts/get', GetPromptResultSchema, toPromptResult);
export const parseComplete = resultParser('completion/complete', CompleteResultSchema, toCompletion);
export const parseResources = resultParser('resources/list', ListResourcesResultSchema, (r) =>
  page(r.resources, r.nextCursor),
);
export const parseTemplates = resultParser('resources/templates/list', ListResourceTemplatesResultSchema, (r) =>
  page(r.resourceTemplates, r.nextCursor),
);
export const parsePrompts = resultParser('prompts/list', ListPromptsResultSchema, (r) => page(r.prompts, r.nextCursor));
