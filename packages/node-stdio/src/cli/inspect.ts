import { type CallOptions, type Client, ErrorCode, RpcError } from '@mcp/core';
import { type Cell, columns, heading, oneLine, type Style } from './format.js';
import { summariseProperties } from './schema-summary.js';
import type { TransportKind } from './session.js';

type Tool = Awaited<ReturnType<Client['listTools']>>[number];
type Resource = Awaited<ReturnType<Client['listResources']>>[number];
type Template = Awaited<ReturnType<Client['listResourceTemplates']>>[number];
type Prompt = Awaited<ReturnType<Client['listPrompts']>>[number];

/** Everything `mcp inspect` shows; a list is absent when the server lacks its capability. */
export interface Inspection {
  readonly protocolVersion: string | undefined;
  /** `modern` (2026-07-28) or `legacy` (the handshake revisions). */
  readonly era: Client['era'];
  readonly transport: TransportKind;
  readonly serverInfo: Client['serverInfo'];
  readonly capabilities: NonNullable<Client['serverCapabilities']>;
  readonly instructions: string | undefined;
  readonly tools?: readonly Tool[];
  readonly resources?: readonly Resource[];
  readonly resourceTemplates?: readonly Template[];
  readonly prompts?: readonly Prompt[];
}

/**
 * Asks a connected server for everything it offers, listing only what its
 * capabilities declare (2025-11-25, basic/lifecycle § Capability Negotiation).
 */
export async function inspectServer(client: Client, call: CallOptions, transport: TransportKind): Promise<Inspection> {
  const capabilities = client.serverCapabilities ?? {};
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    capabilities.tools ? client.listTools(call) : undefined,
    capabilities.resources ? client.listResources(call) : undefined,
    // Templates are optional within the resources feature; a server may not implement the method.
    capabilities.resources ? client.listResourceTemplates(call).catch(emptyIfUnimplemented) : undefined,
    capabilities.prompts ? client.listPrompts(call) : undefined,
  ]);
  return {
    protocolVersion: client.protocolVersion,
    era: client.era,
    transport,
    serverInfo: client.serverInfo,
    capabilities,
    instructions: client.instructions,
    ...(tools && { tools }),
    ...(resources && { resources }),
    ...(resourceTemplates && { resourceTemplates }),
    ...(prompts && { prompts }),
  };
}

function emptyIfUnimplemented(error: unknown): Template[] {
  if (error instanceof RpcError && error.code === ErrorCode.MethodNotFound) return [];
  throw error;
}

/** The terminal layout of an inspection: identity, then one aligned section per feature. */
export function renderInspection(report: Inspection, style: Style, width?: number): string[] {
  const info = report.serverInfo;
  const lines = [style.bold(info?.title ?? info?.name ?? 'MCP server')];
  lines.push(
    ...columns(
      [
        ['name', [info?.name ?? '?', style.accent]],
        ['version', info?.version ?? '?'],
        ['protocol', report.protocolVersion ?? '?'],
        ['era', report.era === 'modern' ? 'modern (2026-07-28, stateless)' : 'legacy (initialize handshake)'],
        ['transport', report.transport],
        ['capabilities', summariseCapabilities(report.capabilities) || 'none'],
      ],
      width,
    ),
  );
  if (report.instructions) lines.push('', heading(style, 'Instructions'), ...paragraphs(report.instructions, width));
  if (report.tools)
    lines.push('', heading(style, 'Tools', report.tools.length), ...toolLines(report.tools, style, width));
  if (report.resources) {
    const rows = report.resources.map((r): Cell[] => [[r.uri, style.accent], r.name, r.mimeType ?? '', describe(r)]);
    lines.push('', heading(style, 'Resources', rows.length), ...columns(rows, width));
  }
  if (report.resourceTemplates) {
    const rows = report.resourceTemplates.map((t): Cell[] => [
      [t.uriTemplate, style.accent],
      t.name,
      t.mimeType ?? '',
      describe(t),
    ]);
    lines.push('', heading(style, 'Resource templates', rows.length), ...columns(rows, width));
  }
  if (report.prompts) {
    const rows = report.prompts.map((p): Cell[] => [[p.name, style.accent], `(${promptArguments(p)})`, describe(p)]);
    lines.push('', heading(style, 'Prompts', rows.length), ...columns(rows, width));
  }
  return lines;
}

/** Each tool on two lines: name and description, then its signature `(a: number*) → {sum: number*}`. */
function toolLines(tools: readonly Tool[], style: Style, width?: number): string[] {
  const rows: Cell[][] = [];
  for (const tool of tools) {
    const output = tool.outputSchema ? ` → {${summariseProperties(tool.outputSchema)}}` : '';
    rows.push([[tool.name, style.accent], describe(tool)]);
    rows.push(['', [`(${summariseProperties(tool.inputSchema)})${output}`, style.dim]]);
  }
  return columns(rows, width);
}

/**
 * Multi-line server text (instructions) with its line breaks kept, each line
 * wrapped to the width; runs of blank lines become one, and the text is trimmed.
 */
function paragraphs(text: string, width?: number): string[] {
  const lines = text
    .trim()
    .split('\n')
    .map((line) => line.trimEnd());
  const kept = lines.filter((line, i) => line !== '' || lines[i - 1] !== '');
  return kept.flatMap((line) => (line === '' ? [''] : columns([[line.replace(/\t/g, '  ')]], width)));
}

function describe(item: { readonly title?: string | undefined; readonly description?: string | undefined }): string {
  return oneLine(item.description ?? item.title);
}

function promptArguments(prompt: Prompt): string {
  return (prompt.arguments ?? []).map((arg) => `${arg.name}${arg.required ? '*' : ''}`).join(', ');
}

/** `tools (listChanged), resources (subscribe, listChanged), logging`: each capability and its enabled flags. */
function summariseCapabilities(capabilities: Readonly<Record<string, unknown>>): string {
  return Object.entries(capabilities)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => {
      const flags =
        typeof value === 'object' && value !== null
          ? Object.entries(value)
              .filter(([, flag]) => flag !== false && flag !== undefined)
              .map(([flag]) => flag)
          : [];
      return flags.length > 0 ? `${name} (${flags.join(', ')})` : name;
    })
    .join(', ');
}
