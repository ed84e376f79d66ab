import * as v from 'valibot';
import type { ClientCapabilities } from './capabilities.js';
import type { Tool } from './tool-definition.js';

/**
 * The MCP Apps extension's identifier (SEP-1865, apps 2026-01-26): a client
 * that renders views declares it under `capabilities.extensions`, as
 * {@link appsCapability} does.
 */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an MCP Apps view: an HTML document served as a `ui://` resource. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** Who may see and call a tool: the model (`"model"`), the tool's own server's views (`"app"`). */
export type ToolAudience = 'model' | 'app';

/**
 * The client's declaration of MCP Apps, to spread into `capabilities.extensions`
 * when the app renders views. The client sends it in `initialize` (2025 era)
 * and in every request's `_meta` (2026-07-28), so a server can offer its UI
 * tools, or fall back to text, by what the client can show.
 *
 * ```ts
 * new Client(transport, { capabilities: { extensions: appsCapability() } });
 * ```
 *
 * @param mimeTypes the view types the app renders (default: only {@link MCP_APP_MIME_TYPE})
 */
export function appsCapability(
  mimeTypes: readonly string[] = [MCP_APP_MIME_TYPE],
): NonNullable<ClientCapabilities['extensions']> {
  return { [MCP_APPS_EXTENSION]: { mimeTypes: [...mimeTypes] } };
}

/** `_meta.ui` of a tool (apps 2026-01-26 § Resource Discovery), as far as a host reads it. */
const ToolUiMetaSchema = v.looseObject({
  resourceUri: v.optional(v.string()),
  visibility: v.optional(v.array(v.string())),
});

/**
 * `_meta.ui` when it is well formed, `undefined` when absent, `null` when
 * present but malformed. The flat `ui/visibility` key was never specified (the
 * spec's Rationale rejected it), so only `ui.visibility` is read.
 */
function uiMeta(tool: Pick<Tool, '_meta'>): v.InferOutput<typeof ToolUiMetaSchema> | undefined | null {
  const ui = tool._meta?.ui;
  if (ui === undefined) return undefined;
  // valibot's object schemas take arrays; a list is no `_meta.ui`.
  if (Array.isArray(ui)) return null;
  const parsed = v.safeParse(ToolUiMetaSchema, ui);
  return parsed.success ? parsed.output : null;
}

/**
 * Who may use a tool, from its `_meta.ui.visibility` (apps 2026-01-26 §
 * Visibility): `["model", "app"]` when it declares none. Values other than
 * `"model"` and `"app"` are ignored. A `_meta.ui` or `visibility` of the wrong
 * shape gives `[]`: the server meant to restrict the tool somehow, and a host
 * cannot tell how, so neither the model nor a view gets it.
 */
export function toolVisibility(tool: Pick<Tool, '_meta'>): ToolAudience[] {
  const ui = uiMeta(tool);
  if (ui === null) return [];
  // A fresh array each time: a caller that changes it changes no other tool's answer.
  const everyone: ToolAudience[] = ['model', 'app'];
  const visibility = ui?.visibility;
  return visibility === undefined ? everyone : everyone.filter((audience) => visibility.includes(audience));
}

/**
 * Whether the model may be offered the tool. A host MUST NOT put a tool whose
 * visibility lacks `"model"` in the model's tool list (apps 2026-01-26 § Visibility).
 */
export function isModelVisible(tool: Pick<Tool, '_meta'>): boolean {
  return toolVisibility(tool).includes('model');
}

/**
 * Whether a view of the tool's own server may call it. A host MUST reject a
 * view's `tools/call` for a tool whose visibility lacks `"app"` (apps 2026-01-26
 * § Visibility), and never lets a view reach another server's tools.
 */
export function isAppVisible(tool: Pick<Tool, '_meta'>): boolean {
  return toolVisibility(tool).includes('app');
}

/**
 * The `ui://` resource that renders the tool's results: `_meta.ui.resourceUri`,
 * else the deprecated flat `_meta["ui/resourceUri"]` that servers still send
 * beside it for older hosts. `undefined` when the tool has no view, or when
 * what it names is not a `ui://` URI.
 */
export function toolResourceUri(tool: Pick<Tool, '_meta'>): string | undefined {
  const ui = uiMeta(tool);
  if (ui === null) return undefined;
  const uri = ui?.resourceUri ?? tool._meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}
