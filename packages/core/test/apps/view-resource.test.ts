import { describe, expect, it } from 'vitest';
import { AppViewError } from '../../src/apps/app-view-error.js';
import { readViewResource } from '../../src/apps/view-resource.js';
import { MCP_APP_MIME_TYPE } from '../../src/protocol/apps.js';
import { connected, useScriptedClients } from '../client/harness.js';

useScriptedClients();

const URI = 'ui://apps/counter.html';
const HTML = '<!doctype html><title>é</title>';
const tool = (meta: Record<string, unknown>) => ({
  name: 'show',
  inputSchema: { type: 'object' as const },
  _meta: meta,
});

/** Reads the view of a tool pointing at `URI`, the scripted server answering `contents`. */
async function read(contents: unknown[], granted = {}) {
  const { client, server } = await connected();
  const reading = readViewResource(client, tool({ ui: { resourceUri: URI } }), granted);
  const request = await server.expect('resources/read');
  expect(request.params).toEqual({ uri: URI });
  await server.reply(request.id, { contents });
  return reading;
}

describe('readViewResource: the ui:// resource a tool points at, or a typed refusal', () => {
  it('reads text/html;profile=mcp-app as text or base64, with its csp; permissions only where declared and granted', async () => {
    const csp = { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] };
    const view = await read(
      [
        {
          uri: URI,
          mimeType: MCP_APP_MIME_TYPE,
          text: HTML,
          _meta: { ui: { csp, permissions: { camera: {}, microphone: {} } } },
        },
      ],
      { camera: true, geolocation: true },
    );
    expect(view).toEqual({ uri: URI, html: HTML, csp, permissions: { camera: {} } });
    const blob = Buffer.from(HTML).toString('base64');
    expect(await read([{ uri: URI, mimeType: 'text/html; profile=mcp-app', blob }])).toEqual({ uri: URI, html: HTML });
  });

  it('drops a malformed csp, so the restrictive default applies, never a looser one', async () => {
    const view = await read([
      { uri: URI, mimeType: MCP_APP_MIME_TYPE, text: HTML, _meta: { ui: { csp: { connectDomains: 'https://x' } } } },
    ]);
    expect(view.csp).toBeUndefined();
  });

  it('refuses any other MIME type, and a resource with no HTML, as unsupported_resource', async () => {
    for (const contents of [
      [{ uri: URI, mimeType: 'text/html', text: HTML }],
      [{ uri: URI, mimeType: 'text/html;profile=mcp-app-x', text: HTML }],
      [{ uri: URI, text: HTML }],
      [],
    ]) {
      const error = await read(contents).catch((failure: unknown) => failure);
      expect(error, JSON.stringify(contents)).toBeInstanceOf(AppViewError);
      expect((error as AppViewError).code).toBe('unsupported_resource');
    }
  });

  it('refuses a tool with no ui:// resource before asking the server anything', async () => {
    const { client } = await connected();
    for (const meta of [{}, { ui: {} }, { ui: { resourceUri: 'https://example.com/view.html' } }, { ui: 'ui://x' }]) {
      const error = await readViewResource(client, tool(meta)).catch((failure: unknown) => failure);
      expect((error as AppViewError).code).toBe('no_ui_resource');
    }
  });

  it('takes the deprecated flat _meta["ui/resourceUri"] too; a failed read is load_failed with the cause', async () => {
    const { client, server } = await connected();
    const reading = readViewResource(client, tool({ 'ui/resourceUri': URI })).catch((failure: unknown) => failure);
    const request = await server.expect('resources/read');
    await server.replyError(request.id, -32002, 'Resource not found');
    const error = (await reading) as AppViewError;
    expect(error.code).toBe('load_failed');
    expect(error.cause).toBeDefined();
  });
});
