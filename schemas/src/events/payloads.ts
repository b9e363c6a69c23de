import { Type, type Static } from '@sinclair/typebox';
import './formats';

/**
 * Payloads of the events on the bus. Money is integer cents; instants are Unix epoch
 * milliseconds and say so in their names (`atMs`, `entryAtMs`, ...), so that consumers never parse
 * dates on the hot path.
 *
 * Field names changed within v1 in the release that put units in names (`ts` → `atMs`, `entryTs` →
 * `entryAtMs`, `expiryTs` → `expiryAtMs`, `openedAt` → `openedAtMs`, `exitTs` → `exitAtMs`,
 * `settledAt` → `settledAtMs`): every producer and consumer is in this repository and ships together,
 * and a Kafka deployment drains its topics before upgrading.
 */

const EpochMs = (description: string) =>
  Type.Integer({ minimum: 0, description: `${description} (Unix epoch ms)` });
const Pair = Type.String({ minLength: 1, maxLength: 32, description: 'Trading pair, e.g. EURUSD' });
const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const AccountType = Type.Union([Type.Literal('demo'), Type.Literal('real')], {
  description: 'Which book the trade belongs to',
});

export const MarketTickPayload = Type.Object(
  {
    pair: Pair,
    price: Type.Number({ exclusiveMinimum: 0, description: 'Price of the pair at `atMs`' }),
    atMs: EpochMs('When the price was observed'),
    reference: Type.Optional(
      Type.Object(
        {
          price: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()], {
            description:
              "The reference feed's latest price when this tick was taken; null when it had none for 5 s",
          }),
          spreadBps: Type.Integer({
            minimum: 1,
            description: 'The largest disagreement the pair allows, basis points',
          }),
        },
        {
          description:
            "Present when the pair has a reference feed: what it said at this tick, so a consumer can tell whether the pair's feeds agree (`feedsAgree` in @updown/verify/rules)",
        },
      ),
    ),
  },
  { title: 'MarketTickPayload' },
);
export type MarketTickPayload = Static<typeof MarketTickPayload>;

export const TradeDirection = Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]);
export type TradeDirection = Static<typeof TradeDirection>;

export const TradeOpenedPayload = Type.Object(
  {
    tradeId: Uuid('Trade id'),
    userId: Uuid('Owner of the trade'),
    pair: Pair,
    direction: TradeDirection,
    amountCents: Type.Integer({ minimum: 1, description: 'Stake in cents' }),
    payoutPct: Type.Number({
      minimum: 0,
      maximum: 1000,
      description: 'Payout percentage fixed at placement',
    }),
    entryPrice: Type.Number({
      exclusiveMinimum: 0,
      description: 'Latest tick price when the trade was accepted',
    }),
    entryAtMs: EpochMs('Time of the entry tick'),
    expiryAtMs: EpochMs('When the trade expires'),
    accountType: AccountType,
    openedAtMs: EpochMs('When the trade was accepted'),
  },
  { title: 'TradeOpenedPayload' },
);
export type TradeOpenedPayload = Static<typeof TradeOpenedPayload>;

export const TradeStatus = Type.Union([
  Type.Literal('won'),
  Type.Literal('lost'),
  Type.Literal('draw'),
  Type.Literal('void'),
]);
export type TradeStatus = Static<typeof TradeStatus>;

export const TradeSettledPayload = Type.Object(
  {
    tradeId: Uuid('Trade id'),
    userId: Uuid('Owner of the trade'),
    pair: Pair,
    status: TradeStatus,
    exitPrice: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()], {
      description: 'Price of the last tick at or before expiry; null when the trade is void',
    }),
    exitAtMs: Type.Union([EpochMs('Time of the exit tick'), Type.Null()]),
    pnlCents: Type.Integer({
      description: 'Profit (positive) or loss (negative) in cents; 0 for draw and void',
    }),
    settledAtMs: EpochMs('When the trade was settled'),
    accountType: AccountType,
    receiptId: Type.Optional(
      Uuid(
        'Id of the signed receipt the trade gets (GET /api/trades/{id}/receipt, docs/receipts.md); derived from the trade id, so it is known when the trade settles and the document follows once a checkpoint covers its exit',
      ),
    ),
  },
  { title: 'TradeSettledPayload' },
);
export type TradeSettledPayload = Static<typeof TradeSettledPayload>;
