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
  type SkillSource,
  SkillsExtension,
  skillEntry,
} from '../../../../test-servers/node_modules/@modelcontextprotocol/server/dist/ext/skills/index.mjs';
// The official v2 server SDK is a dependency of test-servers only, so it is reached through their node_modules.
import {
  createMcpHandler,
  McpServer,
} from '../../../../test-servers/node_modules/@modelcontextprotocol/server/dist/index.mjs';
import { Client, type ClientOptions, StreamableHttpTransport } from '../../src/index.js';
import { SKILLS_EXTENSION } from '../../src/skills/index.js';
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
  return oneSkill(path, entry, served);
}

/** One page of `resources/directory/read` as a test server sends it: children of any shape, a cursor of any kind. */
export interface DirectoryPage {
  readonly resources: unknown;
  readonly nextCursor?: unknown;
}

/**
 * A directory listing a test scripts: the page to answer `uri` at `cursor` with,
 * or `undefined` for "not a directory" (the SDK answers -32602). What it returns
 * goes on the wire as it is, so it can be as wrong as a hostile server's.
 */
export type DirectoryScript = (uri: string, cursor: string | undefined) => DirectoryPage | undefined;

/**
 * One skill served from `files` (entry and content agree), which also serves
 * `resources/directory/read` (declaring `directoryRead: true`) from `directories`.
 * With `dynamic`, the entry publishes `"dynamic"` instead of its file list.
 */
export async function skillWithDirectories(
  path: string,
  files: SkillFiles,
  directories: DirectoryScript,
  options: { dynamic?: boolean } = {},
): Promise<SkillsExtension> {
  const entry: Skill = structuredClone(await skillEntry(path, files));
  if (options.dynamic) entry.resources = 'dynamic';
  return oneSkill(path, entry, files, directories);
}

/** A server for one skill entry, reading `served` for its files and, when given, `directories` for its directories. */
function oneSkill(path: string, entry: Skill, served: SkillFiles, directories?: DirectoryScript): SkillsExtension {
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
      // The SDK passes the page through unchecked, which is what lets a test send a hostile one.
      ...(directories && {
        readDirectory: async (uri: string, { cursor }: { cursor?: string }) =>
          directories(uri, cursor) as Awaited<ReturnType<NonNullable<SkillSource['readDirectory']>>>,
      }),
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

const open: { client: Client; server: SkillsServer }[] = [];

/**
 * A connected client that declares the extension, on a fresh server serving
 * `extension` (Streamable HTTP; `options` may pin the revision). Closed by
 * {@link closeConnections}, which a test file runs after each test.
 */
export async function connectToSkills(extension: SkillsExtension, options: ClientOptions = {}) {
  const server = await startSkillsServer(extension);
  const client = new Client(new StreamableHttpTransport(server.url), {
    capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
    ...options,
  });
  open.push({ client, server });
  await client.connect();
  return { client, server };
}

/** Closes every client and server {@link connectToSkills} opened. */
export async function closeConnections(): Promise<void> {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
}
