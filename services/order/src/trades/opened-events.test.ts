import { describe, expect, it } from 'vitest';
import { isUuid, validateEvent } from '@updown/schemas';
import { openedEvent, openedEventId } from './opened-events';

const row = {
  id: '6f1c1c8e-4a8e-4a53-9a4e-0d6cbd9d1b10',
  user_id: '0b6f8d1e-2c3a-4f5b-8d9e-1a2b3c4d5e6f',
  pair: 'BTCUSDT',
  direction: 'UP' as const,
  amount_cents: 1_000,
  payout_pct: 80,
  entry_price: 97_000.5,
  entry_at_ms: 1_767_614_399_900,
  expiry_at_ms: 1_767_614_460_000,
  account_type: 'demo' as const,
  accepted_at_ms: 1_767_614_400_000,
};

describe('trades.opened.v1 built from the trade row', () => {
  it('is the same event whenever it is built: the id comes from the trade, the time from its acceptance', () => {
    const first = openedEvent(row, 'order');
    expect(openedEvent(row, 'order')).toEqual(first);
    expect(first.id).toBe(openedEventId(row.id));
    expect(first.occurredAt).toBe(new Date(row.accepted_at_ms).toISOString());
    expect(first.payload).toMatchObject({
      tradeId: row.id,
      openedAtMs: row.accepted_at_ms,
      amountCents: 1_000,
    });
    validateEvent('trades.opened.v1', first);
  });

  it('gives each trade its own valid UUID', () => {
    const id = openedEventId(row.id);
    expect(isUuid(id)).toBe(true);
    expect(openedEventId('6f1c1c8e-4a8e-4a53-9a4e-0d6cbd9d1b11')).not.toBe(id);
  });
});
