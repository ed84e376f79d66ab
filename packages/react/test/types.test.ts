import type { CallToolOptions, PromptResult, ReadResourceResult, ToolResult } from '@mcp/core';
import type {
  CatalogueTool,
  Connection,
  ConnectionState,
  PendingRequest,
  ServerConfig,
  Servers,
} from '@mcp/core/connections';
import { createElement, type ReactNode } from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import {
  McpProvider,
  type McpProviderProps,
  type UseMcpResult,
  type UseMcpServersResult,
  useMcp,
  useMcpServers,
} from '../src/index.js';

// The public types, checked by `tsc -b` (this file is in packages/react's tsconfig);
// each `@ts-expect-error` is a misuse that must stay a type error.

describe('the types of @mcp/react', () => {
  it("types a tool call's result as ToolResult, never any", () => {
    expectTypeOf<UseMcpResult['callTool']>().returns.toEqualTypeOf<Promise<ToolResult>>();
    expectTypeOf<Awaited<ReturnType<UseMcpResult['callTool']>>>().not.toBeAny();
    expectTypeOf<UseMcpResult['callTool']>().parameter(2).toEqualTypeOf<CallToolOptions | undefined>();
    expectTypeOf<UseMcpResult['getPrompt']>().returns.toEqualTypeOf<Promise<PromptResult>>();
    expectTypeOf<UseMcpResult['readResource']>().returns.toEqualTypeOf<Promise<ReadResourceResult>>();
  });

  it('gives the state, the pending requests and the connection their own types', () => {
    expectTypeOf<UseMcpResult['state']>().toEqualTypeOf<ConnectionState>();
    expectTypeOf<UseMcpResult['status']>().toEqualTypeOf<ConnectionState['status']>();
    expectTypeOf<UseMcpResult['pending']>().toEqualTypeOf<readonly PendingRequest[]>();
    expectTypeOf<UseMcpResult['connection']>().toEqualTypeOf<Connection | undefined>();
    expectTypeOf<UseMcpResult['authorize']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<UseMcpServersResult['tools']>().toEqualTypeOf<readonly CatalogueTool[]>();
    expectTypeOf<UseMcpServersResult['add']>().parameter(0).toEqualTypeOf<ServerConfig>();
  });

  it('takes a name or a config (with options) in useMcp, and no props in useMcpServers', () => {
    expectTypeOf(useMcp).toBeCallableWith('notes');
    expectTypeOf(useMcp).toBeCallableWith({ name: 'notes', url: 'https://example.com/mcp' });
    expectTypeOf(useMcp).toBeCallableWith({ name: 'notes', url: 'https://example.com/mcp' }, () => ({}));
    expectTypeOf(useMcpServers).parameters.toEqualTypeOf<[]>();
    expectTypeOf(McpProvider).returns.toEqualTypeOf<ReactNode>();
  });
});

/** Misuses that must not type-check; a component never rendered, only compiled. */
export function Misuses({ mcp, servers }: { mcp: UseMcpResult; servers: Servers }): ReactNode {
  // @ts-expect-error a tool's arguments are an object, not a string
  void mcp.callTool('echo', 'hello');
  // @ts-expect-error the result is a ToolResult: it has no such field
  void mcp.callTool('echo', {}).then((result) => result.nothingHere);
  // @ts-expect-error onProgress hears a Progress, not a number
  void mcp.callTool('echo', {}, { onProgress: (progress: number) => progress });
  // @ts-expect-error useMcp takes a name or a config
  useMcp(42);
  // @ts-expect-error options go with a config, not with a name
  useMcp('notes', {});
  // @ts-expect-error the state is read-only
  mcp.status = 'ready';
  // @ts-expect-error a provider holds the app's set or makes one from configs, not both
  const both: McpProviderProps = { servers, configs: [{ name: 'notes', url: 'https://example.com/mcp' }] };
  return createElement(McpProvider, both);
}
