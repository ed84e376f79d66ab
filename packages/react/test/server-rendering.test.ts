import { Connection, MemoryStore, Servers } from '@mcp/core/connections';
import { createElement as h, type ReactNode, StrictMode, version } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServers } from '../../../test-servers/http/serve.mjs';
import { type RecordingProxy, startRecordingProxy } from '../../../test-servers/recording-proxy.mjs';
import {
  McpAppView,
  McpProvider,
  type UseMcpResult,
  type UseMcpServersResult,
  useMcp,
  useMcpServers,
} from '../src/index.js';

// Server rendering (renderToString, as Next.js renders a client component) of the
// provider and both hooks, in the React this run loads: 19 from the package's own
// devDependencies, 18 under the `react18` vitest project (its aliases).
// Nothing may connect (counted at a real server's door) and no browser global
// may be read (each one a trap while rendering).

const REACT_MAJOR = process.env.MCP_REACT_MAJOR ?? '19';

/** Globals a browser has and a server must not be asked for. */
const BROWSER_GLOBALS = [
  'window',
  'document',
  'localStorage',
  'sessionStorage',
  'navigator',
  'location',
  'BroadcastChannel',
] as const;

let http: { readonly modes: string; close(): Promise<void> };
let proxy: RecordingProxy;

beforeAll(async () => {
  http = await startHttpServers();
  proxy = await startRecordingProxy(`${http.modes}/stateful`);
});
afterAll(async () => {
  await proxy?.close();
  await http?.close();
});

/** Renders `element` with every browser global a trap; returns the markup and the globals that were read. */
function renderTrapped(element: ReactNode): { html: string; touched: string[] } {
  const touched: string[] = [];
  const saved = BROWSER_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
  for (const name of BROWSER_GLOBALS) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push(name);
        throw new Error(`${name} was read during server rendering`);
      },
    });
  }
  try {
    return { html: renderToString(element), touched };
  } finally {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete (globalThis as Record<string, unknown>)[name];
    }
  }
}

/** The parts of a hook's result the markup shows. */
function server(label: string, mcp: UseMcpResult): ReactNode {
  return h(
    'p',
    { key: label },
    `${label}: ${mcp.status} tools=${mcp.tools.length} pending=${mcp.pending.length} era=${mcp.era ?? 'none'}`,
  );
}

function ByName(): ReactNode {
  return server('by-name', useMcp('notes'));
}

function ByConfig({ url }: { url: string }): ReactNode {
  return server(
    'by-config',
    useMcp({ name: 'own', url }, () => ({ store: new MemoryStore() })),
  );
}

function All(): ReactNode {
  const all: UseMcpServersResult = useMcpServers();
  return h('p', null, `set: servers=${all.servers.length} tools=${all.tools.length} loading=${String(all.loading)}`);
}

/** A tick and a half of the event loop: what a connection started by the render would have sent by then, it has. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe(`server rendering with React ${REACT_MAJOR}`, () => {
  it(`loads React ${REACT_MAJOR}`, () => {
    expect(version.split('.')[0]).toBe(REACT_MAJOR);
  });

  it('renders a provider that makes its set as idle with empty lists, connecting nowhere and reading no browser global', async () => {
    const made: string[] = [];
    const before = proxy.methods.length;
    const { html, touched } = renderTrapped(
      h(
        StrictMode,
        null,
        h(
          McpProvider,
          {
            configs: [{ name: 'notes', url: proxy.url }],
            store: () => {
              made.push('store');
              return new MemoryStore();
            },
            options: () => {
              made.push('options');
              return {};
            },
          },
          h(ByName),
          h(ByConfig, { url: proxy.url }),
          h(All),
        ),
      ),
    );
    expect(touched).toEqual([]);
    expect(made).toEqual([]);
    expect(html).toContain('by-name: idle tools=0 pending=0 era=none');
    expect(html).toContain('by-config: idle tools=0 pending=0 era=none');
    expect(html).toContain('set: servers=0 tools=0 loading=false');
    await settle();
    expect(proxy.methods.slice(before)).toEqual([]);
  });

  it("renders the app's own set as idle too, whatever it holds on the server", async () => {
    const servers = new Servers();
    const before = proxy.methods.length;
    const { html, touched } = renderTrapped(h(McpProvider, { servers }, h(ByName), h(All)));
    expect(touched).toEqual([]);
    expect(html).toContain('by-name: idle tools=0 pending=0 era=none');
    expect(html).toContain('set: servers=0 tools=0 loading=false');
    await settle();
    expect(proxy.methods.slice(before)).toEqual([]);
    await servers.close();
  });

  it('renders useMcp(config) outside any provider as idle, connecting nowhere', async () => {
    const before = proxy.methods.length;
    const { html, touched } = renderTrapped(h(ByConfig, { url: proxy.url }));
    expect(touched).toEqual([]);
    expect(html).toContain('by-config: idle tools=0 pending=0 era=none');
    await settle();
    expect(proxy.methods.slice(before)).toEqual([]);
  });

  it('renders an <McpAppView> as nothing, reading no browser global and asking its ready server nothing', async () => {
    const servers = new Servers();
    await servers.add({ name: 'notes', url: proxy.url });
    await servers.ready({ timeout: 10_000 });
    const before = proxy.methods.length;
    const view = h(McpAppView, {
      server: 'notes',
      toolCall: { name: 'echo', arguments: { text: 'hi' }, streaming: true },
      sandboxUrl: 'https://sandbox.example.com/sandbox-proxy.html',
      hostContext: { theme: 'dark' },
      onMessage: () => {},
    });
    const { html, touched } = renderTrapped(
      h(StrictMode, null, h(McpProvider, { servers }, h('p', null, 'before'), view, h('p', null, 'after'))),
    );
    expect(touched).toEqual([]);
    expect(html).toBe('<p>before</p><p>after</p>');
    await settle();
    expect(proxy.methods.slice(before)).toEqual([]);
    await servers.close();
  });

  it('counts at the server what a connection that does open sends', async () => {
    // The control of the tests above: the same door, a real connection, and the count moves.
    const before = proxy.methods.length;
    const connection = new Connection({ name: 'control', url: proxy.url });
    await connection.connect();
    await connection.close();
    expect(proxy.methods.slice(before)).toContain('initialize');
  });

  it('throws a clear error for useMcp(name) and useMcpServers() outside a provider', () => {
    expect(() => renderToString(h(ByName))).toThrow('useMcp("notes") needs an <McpProvider> above it');
    expect(() => renderToString(h(All))).toThrow('useMcpServers() needs an <McpProvider> above it');
  });
});
