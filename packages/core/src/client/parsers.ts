import * as v from 'valibot';
import { EmptyResultSchema } from '../protocol/ping.js';
import { CallToolResultSchema, ListToolsResultSchema } from '../protocol/tools.js';
import { page } from './pagination.js';
import { resultParser } from './parse-result.js';
import { toToolResult } from './tool-result.js';

/**
 * The result parsers every program needs: validate at the edge, then map. Those
 * of resources, prompts and completion live in `content-parsers.ts`, loaded the
 * first time one of those methods is called.
 */
export const parseEmpty = resultParser('result', EmptyResultSchema, () => undefined);
export const parseCallTool = resultParser('tools/call', CallToolResultSchema, toToolResult);
export const parseTools = resultParser('tools/list', ListToolsResultSchema, (r) => page(r.tools, r.nextCursor));
/** Any result object, kept whole (`Client.request`). */
export const parseObject = (method: string) => resultParser(method, v.looseObject({}));

/** A listen stream's final result (the server ended it); its content does not matter. */
export const parseAny = (raw: unknown): unknown => raw;
