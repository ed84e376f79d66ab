import { describe, expect, it } from 'vitest';
import {
  CacheHintsSchema,
  freshnessMs,
  NotificationMethod,
  notificationSchema,
  RequestMethod,
  requestSchema,
  resultResponseSchema,
  SubscriptionsAcknowledgedNotificationParamsSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenResultSchema,
  subscriptionIdOf,
} from '../../src/protocol/index.js';
import { broken, fixture, parses, rejectedAt } from './helpers.js';

const Acknowledged = notificationSchema(
  NotificationMethod.SubscriptionsAcknowledged,
  SubscriptionsAcknowledgedNotificationParamsSchema,
);

describe('subscriptions/listen (2026-07-28)', () => {
  it('parses a listen request and requires its filter', () => {
    const message = parses(
      requestSchema(RequestMethod.SubscriptionsListen, SubscriptionsListenRequestParamsSchema),
      fixture('listen-request-2026-07-28'),
    );
    expect(message.params.notifications.resourceSubscriptions).toEqual(['file:///project/README.md']);
    expect(rejectedAt(SubscriptionsListenRequestParamsSchema, {})).toEqual(['notifications']);
  });

  it('parses the acknowledgement and reads its subscription id', () => {
    const message = parses(Acknowledged, fixture('listen-acknowledged-2026-07-28'));
    expect(message.params.notifications).toEqual({ toolsListChanged: true });
    expect(subscriptionIdOf(message)).toBe(42);
  });

  it('rejects an acknowledgement without a subscription id', () => {
    const bad = broken('listen-acknowledged-2026-07-28', (m) => {
      m.params._meta['io.modelcontextprotocol/subscriptionId'] = null;
    });
    expect(rejectedAt(Acknowledged, bad)).toEqual(['params._meta.io.modelcontextprotocol/subscriptionId']);
  });

  it('routes delivered notifications by subscription id, and finds none on ordinary ones', () => {
    expect(subscriptionIdOf(fixture('tools-list-changed-2026-07-28') as { params: Record<string, unknown> })).toBe(42);
    expect(subscriptionIdOf({ params: { progressToken: 1, progress: 1 } })).toBeUndefined();
    expect(subscriptionIdOf({})).toBeUndefined();
  });

  it('parses the result that ends a subscription', () => {
    const { result } = parses(
      resultResponseSchema(SubscriptionsListenResultSchema),
      fixture('listen-result-2026-07-28'),
    );
    expect(result._meta['io.modelcontextprotocol/subscriptionId']).toBe(42);
  });
});

describe('cache hints (2026-07-28)', () => {
  it('reads ttlMs and cacheScope', () => {
    expect(parses(CacheHintsSchema, { ttlMs: 5000, cacheScope: 'public' })).toEqual({
      ttlMs: 5000,
      cacheScope: 'public',
    });
  });

  it('reads an unknown cacheScope as private, never as shareable', () => {
    expect(parses(CacheHintsSchema, { ttlMs: 1, cacheScope: 'shared' }).cacheScope).toBe('private');
  });

  it('rejects a non-numeric ttlMs', () => {
    expect(rejectedAt(CacheHintsSchema, { ttlMs: '60' })).toEqual(['ttlMs']);
  });

  it('treats absent and negative TTLs as stale', () => {
    expect([freshnessMs({}), freshnessMs({ ttlMs: -5 }), freshnessMs({ ttlMs: 250 })]).toEqual([0, 0, 250]);
  });
});
