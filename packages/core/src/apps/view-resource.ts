import * as v from 'valibot';
import type { Client } from '../client/client.js';
import { MCP_APP_MIME_TYPE, toolResourceUri } from '../protocol/apps.js';
import type { Tool } from '../protocol/tool-definition.js';
import { type AppDeclaredPermissions, grantedPermissions } from './app-allow.js';
import { type AppCsp, AppCspSchema } from './app-csp.js';
import type { AppPermissions } from './app-policy.js';
import { AppViewError } from './app-view-error.js';

/** What the sandbox proxy is sent to load (`ui/notifications/sandbox-resource-ready`). */
export interface ViewResource {
  readonly uri: string;
  readonly html: string;
  readonly csp?: AppCsp;
  /** The features the resource declares that the app also grants, as the spec spells them (`{}` each). */
  readonly permissions?: AppDeclaredPermissions;
}

/**
 * Reads a tool's view through `client`: a `ui://` resource of type
 * `text/html;profile=mcp-app` with its HTML as text or base64. Anything else is
 * refused with an `AppViewError`; nothing the app could mount half-way.
 */
export async function readViewResource(
  client: Client,
  tool: Tool,
  granted: AppPermissions = {},
): Promise<ViewResource> {
  const uri = toolResourceUri(tool);
  if (uri === undefined) {
    throw new AppViewError('no_ui_resource', `tool ${tool.name} has no ui:// resource to show`);
  }
  const { contents } = await client.readResource(uri).catch((error: unknown) => {
    throw new AppViewError('load_failed', `reading ${uri} failed`, { cause: error });
  });
  const content = contents.find((part) => part.uri === uri) ?? contents[0];
  const mimeType = content?.mimeType?.replace(/\s+/g, '').toLowerCase();
  if (content === undefined || mimeType !== MCP_APP_MIME_TYPE) {
    throw new AppViewError(
      'unsupported_resource',
      `${uri} is ${content?.mimeType ?? 'empty'}, not ${MCP_APP_MIME_TYPE}: refusing to render it`,
    );
  }
  const html = content.text ?? (content.blob && new TextDecoder('utf-8', { fatal: false }).decode(content.blob));
  if (typeof html !== 'string') throw new AppViewError('unsupported_resource', `${uri} carries no HTML`);
  const ui = content._meta?.ui;
  const declared = ui !== null && typeof ui === 'object' ? (ui as Record<string, unknown>) : {};
  const csp = v.safeParse(AppCspSchema, declared.csp);
  const permissions = grantedPermissions(declared.permissions, granted);
  return {
    uri,
    html,
    // A malformed csp is read as none: the restrictive default applies, never a looser one.
    ...(csp.success && { csp: csp.output }),
    ...(Object.keys(permissions).length > 0 && { permissions }),
  };
}
