import { describe, expect, it } from 'vitest';
import {
  createEvent,
  deadLetterTopic,
  eventTopics,
  eventValidators,
  EventValidationError,
  isDeadLetterTopic,
  isTopicName,
  topicNames,
  UnknownTopicError,
  validateEvent,
  type EventOf,
} from '../index';

const TRADE = {
  tradeId: '0b7f4c2e-8d1a-4c3b-9e6f-2a5d7c9e1b3f',
  userId: '5e2a9c71-3b4d-4f8e-a6c2-d1f0b9e87a64',
  pair: 'EURUSD',
} as const;

const opened = (overrides: Partial<EventOf<'trades.opened.v1'>['payload']> = {}) =>
  createEvent(
    'trades.opened.v1',
    {
      ...TRADE,
      direction: 'UP',
      amountCents: 10_000,
      payoutPct: 82,
      entryPrice: 1.08123,
      entryAtMs: 1_767_225_600_000,
      expiryAtMs: 1_767_225_660_000,
      accountType: 'real',
      openedAtMs: 1_767_225_600_010,
      ...overrides,
    },
    { producer: 'order', id: '9d4e2f6a-1c3b-4a5d-8e7f-6b9c0d1e2f3a', occurredAt: 1_767_225_600_010 },
  );

describe('createEvent', () => {
  it('wraps the payload in the versioned envelope, with injected id and time', () => {
    expect(opened()).toEqual({
      id: '9d4e2f6a-1c3b-4a5d-8e7f-6b9c0d1e2f3a',
      type: 'trade.opened',
      version: 1,
      occurredAt: '2026-01-01T00:00:00.010Z',
      producer: 'order',
      payload: expect.objectContaining({ tradeId: TRADE.tradeId, amountCents: 10_000 }),
    });
  });

  it('generates a UUID and the current time when none is given', () => {
    const before = Date.now();
    const tick = createEvent(
      'market.ticks.v1',
      { pair: 'BTCUSDT', price: 97_000.5, atMs: before },
      { producer: 'ingest' },
    );
    expect(tick.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(tick.occurredAt)).toBeGreaterThanOrEqual(before);
  });

  it('refuses an invalid payload with readable problems', () => {
    const error = (() => {
      try {
        opened({ amountCents: 10.5, direction: 'SIDEWAYS' as 'UP' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EventValidationError);
    const problems = (error as EventValidationError).problems.join('\n');
    expect(problems).toContain('/payload/amountCents');
    expect(problems).toContain('/payload/direction');
  });

  it('accepts a settled trade with a null exit for void trades', () => {
    const settled = createEvent(
      'trades.settled.v1',
      {
        ...TRADE,
        status: 'void',
        exitPrice: null,
        exitAtMs: null,
        pnlCents: 0,
        settledAtMs: 1,
        accountType: 'demo',
      },
      { producer: 'settlement' },
    );
    expect(eventValidators['trades.settled.v1'].check(settled)).toBe(true);
  });
});

describe('topic validators', () => {
  it('reject an event whose type or version is not the topic’s', () => {
    const event = opened();
    expect(eventValidators['trades.opened.v1'].check({ ...event, version: 2 })).toBe(false);
    expect(
      eventValidators['trades.opened.v1'].problems({ ...event, type: 'trade.settled' }).join(),
    ).toContain('/type');
    expect(eventValidators['trades.settled.v1'].check(event)).toBe(false);
  });

  it('accept fields they do not know, so consumers survive a producer that added one', () => {
    const event = opened();
    expect(
      eventValidators['trades.opened.v1'].check({
        ...event,
        traceId: 'x',
        payload: { ...event.payload, extra: 1 },
      }),
    ).toBe(true);
  });

  it('check the uuid and date-time formats', () => {
    const event = opened();
    expect(eventValidators['trades.opened.v1'].problems({ ...event, id: 'not-a-uuid' }).join()).toContain(
      '/id',
    );
    expect(
      eventValidators['trades.opened.v1'].problems({ ...event, occurredAt: 'yesterday' }).join(),
    ).toContain('/occurredAt');
  });

  it('limit how many problems they report', () => {
    expect(eventValidators['market.ticks.v1'].problems({}).length).toBeLessThanOrEqual(10);
  });

  it('validateEvent throws typed errors', () => {
    expect(() => validateEvent('market.ticks.v1', { nope: true })).toThrow(EventValidationError);
    expect(() => validateEvent('no.such.v1' as 'market.ticks.v1', {})).toThrow(UnknownTopicError);
  });
});

describe('topic registry', () => {
  it('names every topic with its version, matching the envelope version', () => {
    for (const name of topicNames) {
      expect(name).toMatch(/\.v\d+$/);
      expect(name.endsWith(`.v${eventTopics[name].version}`)).toBe(true);
      expect(isTopicName(name)).toBe(true);
    }
    expect(isTopicName('trades.opened.v1.dlq')).toBe(false);
  });

  it('derives dead-letter topics by suffix', () => {
    expect(deadLetterTopic('trades.opened.v1')).toBe('trades.opened.v1.dlq');
    expect(isDeadLetterTopic('trades.opened.v1.dlq')).toBe(true);
    expect(isDeadLetterTopic('trades.opened.v1')).toBe(false);
  });
});
