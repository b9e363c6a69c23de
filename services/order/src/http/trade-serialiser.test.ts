import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { Trade } from '@updown/schemas/api';
import { serialiseTrade, writingSchema } from './trade-serialiser';

/** The writing schema must write every trade exactly as the document's own schema would. */

const pending: Trade = {
  id: '6c1f0a3e-6d2b-4b8e-9a61-0d6c3f1e2a44',
  pair: 'BTCUSDT',
  direction: 'UP',
  amount: 12.34,
  entry_price: 97_123.25,
  exit_price: null,
  payout_pct: 85,
  status: 'pending',
  pnl: null,
  created_at: '2026-11-28T06:00:00.123Z',
  expiry_ts: 1_795_000_000,
  account_type: 'demo',
  duration: 60,
  expiry_at_ms: 1_795_000_000_000,
  settled_at_ms: null,
  void_reason: null,
  receipt_id: null,
};

const trades: [string, Trade][] = [
  ['a pending trade', pending],
  [
    'a settled real DOWN trade with its receipt',
    {
      ...pending,
      direction: 'DOWN',
      account_type: 'real',
      status: 'won',
      exit_price: 97_000.5,
      pnl: 10.48,
      settled_at_ms: 1_795_000_000_250,
      receipt_id: 'a9b2c7d4-1e5f-4a6b-8c9d-0e1f2a3b4c5d',
    },
  ],
  [
    'a void trade with its reason',
    { ...pending, status: 'void', pnl: 0, void_reason: 'no_exit_tick', exit_price: null },
  ],
  ['a lost trade with a negative P/L', { ...pending, status: 'lost', exit_price: 1e-8, pnl: -12.34 }],
];

describe('the trade serialiser', () => {
  const documented = fastJson(Trade);

  it.each(trades)('writes %s as the documented schema does', (_name, trade) => {
    expect(serialiseTrade(trade)).toBe(documented(trade));
    expect(JSON.parse(serialiseTrade(trade))).toEqual(trade);
  });

  it('writes unions of primitives as lists of types, and leaves others', () => {
    const schema = writingSchema(Trade) as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.exit_price).toMatchObject({ type: ['number', 'null'] });
    expect(schema.properties.void_reason).toMatchObject({ type: ['string', 'null'] });
    expect(schema.properties.status).toMatchObject({ type: 'string' });
    expect(schema.properties.status!.anyOf).toBeUndefined();
    const mixed = { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] };
    expect(writingSchema(mixed)).toEqual(mixed);
  });
});
