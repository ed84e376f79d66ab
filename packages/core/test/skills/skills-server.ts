/**
 * A real skills server for the tests: the official v2 server SDK's McpServer
 * with its Skills extension (`@modelcontextprotocol/server/ext/skills`), behind
 * `createMcpHandler` on a loopback HTTP port. A tap on the HTTP requests records
 * every method the client sent and every URI it read.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  memorySkillFiles,
  type Skill,
  SkillsExtension,
  skillEntry,
} from '../../../../test-servers/node_modules/@modelcontextprotocol/server/dist/ext/skills/index.mjs';
// The official v2 server SDK is a dependency of test-servers only, so it is reached through their node_modules.
import {
  createMcpHandler,
  McpServer,
} from '../../../../test-servers/node_modules/@modelcontextprotocol/server/dist/index.mjs';
import { toNodeListener } from '../transport/http/test-servers.js';

export interface SkillsServer {
  readonly url: string;
  /** Methods of the JSON-RPC requests the client sent, in order. */
  readonly methods: string[];
  /** The `uri` of every `resources/read` the client sent, in order. */
  readonly reads: string[];
  close(): Promise<void>;
}

/** Files of one skill by path under its folder (`SKILL.md`, `references/FORMS.md`). */
export type SkillFiles = Record<string, string>;

/** A catalog the SDK builds from files (keys `<skill>/<path>`), `pageSize` entries per `skills/list` page. */
export function catalog(files: Record<string, string>, pageSize = 100): Promise<SkillsExtension> {
  return SkillsExtension.load(memorySkillFiles(files), { pageSize, onWarning: () => {} });
}

/**
 * One skill whose entry the server computes from `published` while
 * `resources/read` serves `served`: what a tampered, corrupted or stale skill
 * looks like to a host. `frontmatterFrom` overrides the entry's frontmatter.
 */
export async function tamperedSkill(
  path: string,
  published: SkillFiles,
  served: SkillFiles,
  frontmatterFrom?: SkillFiles,
): Promise<SkillsExtension> {
  const entry: Skill = structuredClone(await skillEntry(path, published));
  if (frontmatterFrom) entry.frontmatter = structuredClone((await skillEntry(path, frontmatterFrom)).frontmatter);
  const prefix = `skill://${path}/`;
  return new SkillsExtension({
    onWarning: () => {},
    source: {
      list: async () => ({ skills: [entry] }),
      get: async (uri: string) => (uri === entry.uri ? entry : undefined),
      read: async (uri: string) => {
        const text = uri.startsWith(prefix) ? served[uri.slice(prefix.length)] : undefined;
        return text === undefined ? undefined : { text, mimeType: 'text/markdown' };
      },
    },
  });
}

/** Serves `extension` on a fresh McpServer per request (both eras), on 127.0.0.1. */
export async function startSkillsServer(extension: SkillsExtension): Promise<SkillsServer> {
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: 'skills-test-server', version: '1.0.0' }, { capabilities: { resources: {} } });
    extension.attach(mcp);
    return mcp;
  });
  const methods: string[] = [];
  const reads: string[] = [];
  const tap = async (request: Request): Promise<Response> => {
    if (request.method === 'POST') {
      const message = JSON.parse(await request.clone().text()) as { method?: string; params?: { uri?: unknown } };
      if (typeof message.method === 'string') methods.push(message.method);
      if (message.method === 'resources/read' && typeof message.params?.uri === 'string')
        reads.push(message.params.uri);
    }
    return handler.fetch(request);
  };
  const server = createServer(toNodeListener(tap));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    methods,
    reads,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
