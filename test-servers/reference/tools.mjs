import { z } from 'zod';
import { errorResult } from './tool-results.mjs';
import { addTool, echoTool, failTool, mixedContentTool, slowTool } from './tools-basic.mjs';
import { elicitTool, listRootsTool, sampleTool } from './tools-client.mjs';
import { addToolTool, logTool, touchResourceTool } from './tools-notify.mjs';
import { structuredTools } from './tools-structured.mjs';
import { completeUrlElicitationTool, urlRequiredTool } from './tools-url-elicitation.mjs';

/** @typedef {import('./tool-context.mjs').ReferenceTool} ReferenceTool */
/** @typedef {import('./tool-context.mjs').ToolContext} ToolContext */

/**
 * The tools a profile starts with, in `tools/list` order. `full` has eleven,
 * so the default page size of five needs three pages; `minimal` has `echo` only;
 * `structured` has the output-schema tools of `tools-structured.mjs`;
 * `url-elicitation` has `url-required` and `complete-url-elicitation` (`tools-url-elicitation.mjs`).
 * @param {import('./server-info.mjs').Profile} profile
 * @returns {ReferenceTool[]}
 */
export function initialTools(profile) {
  if (profile === 'minimal') return [echoTool];
  if (profile === 'structured') return [...structuredTools];
  if (profile === 'url-elicitation') return [urlRequiredTool, completeUrlElicitationTool];
  return [
    echoTool,
    addTool,
    mixedContentTool,
    failTool,
    slowTool,
    sampleTool,
    elicitTool,
    listRootsTool,
    logTool,
    touchResourceTool,
    addToolTool,
  ];
}

/**
 * The `outputSchema` a tool lists: its raw `outputJsonSchema` when it has one
 * (a schema zod would not write), else its zod `outputSchema` as JSON Schema.
 * @param {ReferenceTool} tool
 * @returns {Record<string, unknown> | undefined}
 */
export function outputJsonSchema(tool) {
  return tool.outputJsonSchema ?? (tool.outputSchema && z.toJSONSchema(tool.outputSchema));
}

/**
 * A tool as `tools/list` describes it, its zod schemas as JSON Schema 2020-12
 * (the default dialect from 2025-11-25 on).
 * @param {ReferenceTool} tool
 */
export function describeTool(tool) {
  const outputSchema = outputJsonSchema(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.inputSchema, { io: 'input' }),
    ...(outputSchema && { outputSchema }),
    ...(tool.annotations && { annotations: tool.annotations }),
  };
}

/**
 * Runs a tool on raw `arguments`. Arguments that fail the input schema come
 * back as an isError result, so the model can correct itself (2025-11-25,
 * server/tools § Error Handling: input validation errors are tool errors).
 * @param {ReferenceTool} tool
 * @param {unknown} args
 * @param {ToolContext} ctx
 */
export async function callTool(tool, args, ctx) {
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return errorResult(`Invalid arguments for tool ${tool.name}: ${issues.join('; ')}`);
  }
  return tool.run(parsed.data, ctx);
}
