import { describe, expect, it } from 'vitest';
import {
  CancelledNotificationParamsSchema,
  EmptyResultSchema,
  ListChangedNotificationParamsSchema,
  LOGGING_LEVELS,
  LoggingLevelSchema,
  LoggingMessageNotificationParamsSchema,
  NotificationMethod,
  notificationSchema,
  ProgressNotificationParamsSchema,
  ResourceUpdatedNotificationParamsSchema,
} from '../../src/protocol/index.js';
import { fixture, parses, rejectedAt } from './helpers.js';

describe('logging', () => {
  it('parses a log message with structured data', () => {
    const message = parses(
      notificationSchema(NotificationMethod.Message, LoggingMessageNotificationParamsSchema),
      fixture('logging-message'),
    );
    expect(message.params).toMatchObject({ level: 'error', logger: 'database' });
  });

  it('knows the eight RFC 5424 levels and nothing else', () => {
    expect(LOGGING_LEVELS).toHaveLength(8);
    expect(rejectedAt(LoggingLevelSchema, 'verbose')).toEqual(['']);
  });

  it('requires level and data', () => {
    expect(rejectedAt(LoggingMessageNotificationParamsSchema, { logger: 'x' })).toEqual(['level', 'data']);
  });
});

describe('progress', () => {
  it('parses fractional progress with a total and message (2025-03-26)', () => {
    const message = parses(
      notificationSchema(NotificationMethod.Progress, ProgressNotificationParamsSchema),
      fixture('progress-2025-03-26'),
    );
    expect(message.params).toMatchObject({ progressToken: 'abc123', progress: 50.5, total: 100 });
  });

  it('rejects a missing token and non-numeric progress', () => {
    expect(rejectedAt(ProgressNotificationParamsSchema, { progress: '5' })).toEqual(['progressToken', 'progress']);
  });

  it('takes a string or a number as the token, nothing else', () => {
    for (const progressToken of ['t', 0, 1.5]) parses(ProgressNotificationParamsSchema, { progressToken, progress: 1 });
    for (const progressToken of [null, true, Number.NaN, {}]) {
      expect(rejectedAt(ProgressNotificationParamsSchema, { progressToken, progress: 1 })).toEqual(['progressToken']);
    }
  });
});

describe('cancellation, list changes, resource updates, ping', () => {
  it('parses a cancellation and rejects a null request id', () => {
    const message = parses(
      notificationSchema(NotificationMethod.Cancelled, CancelledNotificationParamsSchema),
      fixture('cancelled'),
    );
    expect(message.params.requestId).toBe('123');
    expect(rejectedAt(CancelledNotificationParamsSchema, { requestId: null })).toEqual(['requestId']);
  });

  it('parses list_changed with and without params', () => {
    const schema = notificationSchema(NotificationMethod.ToolsListChanged, ListChangedNotificationParamsSchema);
    expect(parses(schema, fixture('tools-list-changed-2026-07-28')).params._meta).toEqual({
      'io.modelcontextprotocol/subscriptionId': 42,
    });
    expect(parses(ListChangedNotificationParamsSchema, {})).toEqual({});
  });

  it('requires the uri of an updated resource', () => {
    const schema = notificationSchema(NotificationMethod.ResourceUpdated, ResourceUpdatedNotificationParamsSchema);
    expect(parses(schema, fixture('resource-updated')).params.uri).toBe('file:///project/src/main.rs');
    expect(rejectedAt(ResourceUpdatedNotificationParamsSchema, {})).toEqual(['uri']);
  });

  it('accepts an empty result and keeps its extras', () => {
    expect(parses(EmptyResultSchema, {})).toEqual({});
    expect(parses(EmptyResultSchema, { note: 1 })).toEqual({ note: 1 });
    expect(rejectedAt(EmptyResultSchema, { _meta: 'x' })).toEqual(['_meta']);
  });
});
