import { describe, expect, it } from 'vitest';
import {
  appsCapability,
  isAppVisible,
  isModelVisible,
  MCP_APP_MIME_TYPE,
  MCP_APPS_EXTENSION,
  toolResourceUri,
  toolVisibility,
} from '../../src/protocol/index.js';

const tool = (meta?: Record<string, unknown>) => ({ ...(meta !== undefined && { _meta: meta }) });

describe('MCP Apps: the client declaration', () => {
  it('is the extension entry of apps 2026-01-26, with the mcp-app MIME type', () => {
    expect(MCP_APPS_EXTENSION).toBe('io.modelcontextprotocol/ui');
    expect(appsCapability()).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    expect(appsCapability([MCP_APP_MIME_TYPE, 'text/x-future'])).toEqual({
      [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE, 'text/x-future'] },
    });
  });

  it('gives a fresh object each time, so one app cannot change another use of it', () => {
    const first = appsCapability();
    (first[MCP_APPS_EXTENSION] as { mimeTypes: string[] }).mimeTypes.push('text/plain');
    expect(appsCapability()[MCP_APPS_EXTENSION]).toEqual({ mimeTypes: [MCP_APP_MIME_TYPE] });
  });
});

describe('MCP Apps: tool visibility', () => {
  it('defaults to model and app when the tool declares none', () => {
    for (const meta of [undefined, {}, { ui: {} }, { ui: { resourceUri: 'ui://x/view.html' } }]) {
      expect(toolVisibility(tool(meta))).toEqual(['model', 'app']);
      expect(isModelVisible(tool(meta))).toBe(true);
      expect(isAppVisible(tool(meta))).toBe(true);
    }
  });

  it('reads _meta.ui.visibility: app only, model only, neither', () => {
    const appOnly = tool({ ui: { visibility: ['app'] } });
    expect([isModelVisible(appOnly), isAppVisible(appOnly)]).toEqual([false, true]);
    const modelOnly = tool({ ui: { visibility: ['model'] } });
    expect([isModelVisible(modelOnly), isAppVisible(modelOnly)]).toEqual([true, false]);
    expect(toolVisibility(tool({ ui: { visibility: [] } }))).toEqual([]);
    expect(toolVisibility(tool({ ui: { visibility: ['app', 'model', 'app'] } }))).toEqual(['model', 'app']);
  });

  it('ignores audiences it does not know, and a flat ui/visibility key the spec never adopted', () => {
    expect(toolVisibility(tool({ ui: { visibility: ['app', 'widget'] } }))).toEqual(['app']);
    expect(toolVisibility(tool({ 'ui/visibility': ['app'] }))).toEqual(['model', 'app']);
  });

  it('gives nobody a tool whose ui metadata is malformed, since its restriction cannot be read', () => {
    for (const ui of ['app', 7, null, [], { visibility: 'app' }, { visibility: [1] }, { resourceUri: 5 }]) {
      expect(toolVisibility(tool({ ui })), JSON.stringify(ui)).toEqual([]);
      expect(isModelVisible(tool({ ui }))).toBe(false);
      expect(isAppVisible(tool({ ui }))).toBe(false);
    }
  });
});

describe('MCP Apps: the tool resource', () => {
  it('reads _meta.ui.resourceUri, else the deprecated flat ui/resourceUri', () => {
    expect(toolResourceUri(tool({ ui: { resourceUri: 'ui://a/view.html' } }))).toBe('ui://a/view.html');
    expect(toolResourceUri(tool({ 'ui/resourceUri': 'ui://b/view.html' }))).toBe('ui://b/view.html');
    expect(
      toolResourceUri(tool({ ui: { resourceUri: 'ui://a/view.html' }, 'ui/resourceUri': 'ui://b/view.html' })),
    ).toBe('ui://a/view.html');
    expect(toolResourceUri(tool())).toBeUndefined();
  });

  it('is undefined for anything but a ui:// URI, or malformed ui metadata', () => {
    expect(toolResourceUri(tool({ ui: { resourceUri: 'https://evil.example/view.html' } }))).toBeUndefined();
    expect(toolResourceUri(tool({ 'ui/resourceUri': 'javascript:alert(1)' }))).toBeUndefined();
    expect(toolResourceUri(tool({ 'ui/resourceUri': 42 }))).toBeUndefined();
    expect(toolResourceUri(tool({ ui: 'ui://a/view.html' }))).toBeUndefined();
  });
});
