import { DomainError } from '@updown/runtime/errors';
import { fundsAfterStake } from '@updown/wallet/domain';
import { UNCAPPED_TRADER, withTrade, type PairRisk, type TraderRisk } from '../risk/risk.domain';
import {
  decidePlacement,
  type AcceptedTrade,
  type AccountType,
  type Direction,
  type PlacementState,
} from './place-trade.domain';

/**
 * A batch of placements decided as if they had arrived one after another in the order given: each
 * sees the stakes accepted before it (a user's running balance) and the idempotency keys used
 * before it, in the batch or committed earlier. Pure: the handler reads the state under the
 * batch's locks and writes what this returns.
 */

/** What an idempotency key pins: a retry with the key must ask for the same trade. */
export interface PlacementTerms {
  readonly pair: string;
  readonly direction: Direction;
  readonly amountCents: number;
  readonly durationSec: number;
  readonly accountType: AccountType;
}

export interface BatchPlacement extends PlacementTerms {
  readonly userId: string;
  readonly idempotencyKey?: string;
  /** The payout the trader was shown (`PlaceTradeCommand.expectedPayoutPct`). */
  readonly expectedPayoutPct?: number;
}

export type PairTerms = NonNullable<PlacementState['pair']>;
export type LatestTick = NonNullable<PlacementState['latestTick']>;

export interface BatchState<Prior extends PlacementTerms> {
  /** The instant the batch is accepted at, read once its locks are held. */
  readonly now: number;
  readonly stakeCentsMax: number;
  /** Each user's balances as locked; every user of the batch has an entry. */
  readonly balances: ReadonlyMap<string, PlacementState['balances']>;
  /** The known pairs among the batch's; a pair absent here does not exist. */
  readonly pairs: ReadonlyMap<string, PairTerms>;
  readonly latestTicks: ReadonlyMap<string, LatestTick>;
  /** The credited amount of each user's active bonus; absent when none is active. */
  readonly activeBonusCents: ReadonlyMap<string, number>;
  /** Trades committed before the batch under one of its keys, by `idempotencyScope`. */
  readonly committed: ReadonlyMap<string, Prior>;
  /** Each known pair's risk settings and book, as locked; a pair absent here has no controls. */
  readonly risk?: ReadonlyMap<string, PairRisk>;
  /** Each user's open real trades and caps; a user absent here has none. */
  readonly traders?: ReadonlyMap<string, TraderRisk>;
}

export type BatchOutcome<Prior> =
  | { readonly kind: 'accepted'; readonly trade: AcceptedTrade }
  /** The same request again under a key a trade committed before the batch holds. */
  | { readonly kind: 'replay-committed'; readonly prior: Prior }
  /** The same request again under a key an earlier placement of this batch was accepted with. */
  | { readonly kind: 'replay-in-batch'; readonly index: number }
  /** The key holds a trade with other terms: 409 `IDEMPOTENCY_CONFLICT`. */
  | { readonly kind: 'conflict'; readonly idempotencyKey: string }
  | { readonly kind: 'refused'; readonly error: DomainError };

/** Idempotency keys are per user: two users may use the same one. */
export function idempotencyScope(userId: string, idempotencyKey: string): string {
  return `${userId} ${idempotencyKey}`;
}

/**
 * A retry repeats the request it retries. Answering another body with the first trade would tell
 * the trader that a trade they never got was placed, so the key's reuse for a different trade is
 * refused instead (409 `IDEMPOTENCY_CONFLICT`, as the wallet's commands answer).
 */
export function sameTerms(a: PlacementTerms, b: PlacementTerms): boolean {
  return (
    a.pair === b.pair &&
    a.direction === b.direction &&
    a.amountCents === b.amountCents &&
    a.durationSec === b.durationSec &&
    a.accountType === b.accountType
  );
}

/**
 * One outcome per placement, in order. A refusal (any rule of `decidePlacement`) answers that
 * placement alone and moves nothing, so the next one of the same user sees the same balance; a
 * key is checked before the rules, as a lone placement checks it before deciding.
 */
export function decideBatch<Prior extends PlacementTerms>(
  placements: readonly BatchPlacement[],
  state: BatchState<Prior>,
): BatchOutcome<Prior>[] {
  const funds = new Map(state.balances);
  // The books and traders' open trades run through the batch as the balances do: each placement
  // is decided on the trades accepted before it, so a batch cannot overshoot a cap either.
  const books = new Map(state.risk ?? []);
  const traders = new Map(state.traders ?? []);
  const acceptedByKey = new Map<string, number>();
  return placements.map((placement, index): BatchOutcome<Prior> => {
    const key = placement.idempotencyKey;
    const scope = key === undefined ? undefined : idempotencyScope(placement.userId, key);
    if (scope !== undefined) {
      const prior = state.committed.get(scope);
      const earlier = acceptedByKey.get(scope);
      const terms = prior ?? (earlier === undefined ? undefined : placements[earlier]);
      if (terms) {
        if (!sameTerms(terms, placement)) return { kind: 'conflict', idempotencyKey: key! };
        return prior ? { kind: 'replay-committed', prior } : { kind: 'replay-in-batch', index: earlier! };
      }
    }
    const balances = funds.get(placement.userId);
    // The handler locks every user of the batch; a user missing here is a bug, not a refusal.
    if (!balances) throw new Error(`placement for ${placement.userId}, whose balances were not read`);
    let trade: AcceptedTrade;
    try {
      trade = decidePlacement(
        {
          pair: state.pairs.get(placement.pair),
          latestTick: state.latestTicks.get(placement.pair),
          stakeCentsMax: state.stakeCentsMax,
          balances,
          activeBonusCents: state.activeBonusCents.get(placement.userId),
          risk: books.get(placement.pair),
          trader: traders.get(placement.userId),
        },
        { ...placement, now: state.now },
      );
    } catch (error) {
      if (error instanceof DomainError) return { kind: 'refused', error };
      throw error;
    }
    funds.set(
      placement.userId,
      fundsAfterStake(balances, trade.accountType, {
        fromCashCents: trade.stakeFromCashCents,
        fromBonusCents: trade.stakeFromBonusCents,
      }),
    );
    if (trade.accountType === 'real') {
      const risk = books.get(trade.pair);
      if (risk) books.set(trade.pair, { ...risk, book: withTrade(risk.book, trade) });
      const trader = traders.get(placement.userId) ?? UNCAPPED_TRADER;
      traders.set(placement.userId, {
        ...trader,
        openTrades: trader.openTrades + 1,
        openStakeCents: trader.openStakeCents + trade.amountCents,
      });
    }
    if (scope !== undefined) acceptedByKey.set(scope, index);
    return { kind: 'accepted', trade };
  });
}
