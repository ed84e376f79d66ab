import { describe, expect, it } from 'vitest';
import {
  ClientCapabilitiesSchema,
  DiscoverResultSchema,
  ImplementationSchema,
  InitializeRequestParamsSchema,
  InitializeResultSchema,
  requestSchema,
  resultResponseSchema,
  ServerCapabilitiesSchema,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const InitializeResponse = resultResponseSchema(InitializeResultSchema);
const DiscoverResponse = resultResponseSchema(DiscoverResultSchema);

describe('initialize results per revision', () => {
  it('parses a 2024-11-05 result with only name and version', () => {
    const { result } = parses(InitializeResponse, fixture('initialize-result-2024-11-05'));
    expect(result.serverInfo).toEqual({ name: 'example-server', version: '1.0.0' });
    expect(result.capabilities.resources).toEqual({ subscribe: true, listChanged: true });
  });

  it('parses a 2025-06-18 result with title, instructions and experimental capabilities', () => {
    const { result } = parses(InitializeResponse, fixture('initialize-result-2025-06-18'));
    expect(result.serverInfo.title).toBe('Weather Service');
    expect(result.instructions).toMatch(/get_forecast/);
    expect(result.capabilities.experimental).toEqual({ 'com.example/streaming': { chunkSize: 512 } });
    expect(result._meta).toEqual({ 'com.example/region': 'eu-west' });
  });

  it('parses a 2025-11-25 result with icons, website and task capabilities', () => {
    const { result } = parses(InitializeResponse, fixture('initialize-result-2025-11-25'));
    expect(result.serverInfo.icons?.[0]).toMatchObject({ sizes: ['48x48'], theme: 'light' });
    expect(result.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it('accepts a protocolVersion it does not implement, leaving the decision to the caller', () => {
    const future = broken('initialize-result-2025-06-18', (m) => {
      m.result.protocolVersion = '2027-01-01';
    });
    expect(parses(InitializeResponse, future).result.protocolVersion).toBe('2027-01-01');
  });

  it('rejects broken capabilities and server info at their path', () => {
    const badTools = broken('initialize-result-2025-06-18', (m) => {
      m.result.capabilities.tools = true;
    });
    expect(rejectedAt(InitializeResponse, badTools)).toEqual(['result.capabilities.tools']);
    const badListChanged = broken('initialize-result-2024-11-05', (m) => {
      m.result.capabilities.prompts.listChanged = 'yes';
    });
    expect(rejectedAt(InitializeResponse, badListChanged)).toEqual(['result.capabilities.prompts.listChanged']);
    const noVersion = broken('initialize-result-2024-11-05', (m) => {
      delete m.result.serverInfo.version;
    });
    expect(rejectedAt(InitializeResponse, noVersion)).toEqual(['result.serverInfo.version']);
    const badIcon = broken('initialize-result-2025-11-25', (m) => {
      m.result.serverInfo.icons[0].theme = 'sepia';
    });
    expect(rejectedAt(InitializeResponse, badIcon)).toEqual(['result.serverInfo.icons.0.theme']);
  });

  it('rejects a result missing protocolVersion or capabilities', () => {
    const paths = rejectedAt(InitializeResultSchema, { serverInfo: { name: 's', version: '1' } });
    expect(paths).toEqual(['protocolVersion', 'capabilities']);
  });

  it('keeps capabilities it does not know', () => {
    const capabilities = parses(ServerCapabilitiesSchema, { tools: { listChanged: true, paged: 1 }, holograms: {} });
    expect(capabilities).toEqual({ tools: { listChanged: true, paged: 1 }, holograms: {} });
  });
});

describe('initialize request', () => {
  it('parses a 2025-11-25 request with every client capability', () => {
    const message = parses(
      requestSchema('initialize', InitializeRequestParamsSchema),
      fixture('initialize-request-2025-11-25'),
    );
    expect(message.params.capabilities.elicitation).toEqual({ form: {}, url: {} });
  });

  it('rejects client capabilities of the wrong type', () => {
    expect(rejectedAt(ClientCapabilitiesSchema, { sampling: { tools: true } })).toEqual(['sampling.tools']);
    expect(rejectedAt(ClientCapabilitiesSchema, { extensions: { 'io.example/x': 1 } })).toEqual([
      'extensions.io.example/x',
    ]);
  });

  it('requires name and version of an implementation', () => {
    expect(rejectedAt(ImplementationSchema, { name: 'c' })).toEqual(['version']);
  });
});

describe('server/discover (2026-07-28)', () => {
  it('parses versions, capabilities, cache hints and serverInfo meta', () => {
    const { result } = parses(DiscoverResponse, fixture('discover-result-2026-07-28'));
    expect(result.supportedVersions).toEqual(['2026-07-28', '2025-11-25']);
    expect(result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect([result.ttlMs, result.cacheScope, result.resultType]).toEqual([60000, 'public', 'complete']);
    expect(result._meta?.['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'search', version: '3.0.0' });
  });

  it('rejects a result without supportedVersions, or with a non-string version', () => {
    const missing = broken('discover-result-2026-07-28', (m) => {
      delete m.result.supportedVersions;
    });
    expect(rejectedAt(DiscoverResponse, missing)).toEqual(['result.supportedVersions']);
    const wrong = broken('discover-result-2026-07-28', (m) => {
      m.result.supportedVersions = ['2026-07-28', 20251125];
    });
    expect(rejectedAt(DiscoverResponse, wrong)).toEqual(['result.supportedVersions.1']);
  });
});
