/**
 * The independent model: what every user's accounts must hold, computed only from the history of
 * acknowledged operations and, for trades, from the entry price and payout the placement answered
 * with and the stored exit tick. It never reads the product's outcome or P/L. Pure functions.
 *
 * The bonus rules it applies (DESIGN §4): the first real deposit of at least $20 while no bonus was
 * ever credited earns 50% of it, capped at $500; a withdrawal request or a cancel forfeits the
 * whole bonus balance. The workload never lets a bonus take part in a stake (it places real trades
 * only when the cash alone covers them) nor lets wagering complete, so the bonus balance is always
 * exactly the amount credited until it is forfeited.
 */

export const DEMO_GRANT_CENTS = 1_000_000;
export const BONUS_MIN_DEPOSIT_CENTS = 2_000;
export const BONUS_CAP_CENTS = 50_000;
export const EXIT_TICK_AGE_MS_MAX = 10_000;

export type AccountType = 'real' | 'demo';
export type Direction = 'UP' | 'DOWN';
export type TradeStatus = 'won' | 'lost' | 'draw' | 'void';

export interface PlacedTrade {
  readonly tradeId: string;
  readonly pair: string;
  readonly direction: Direction;
  readonly account: AccountType;
  readonly amountCents: number;
  readonly entryPrice: number;
  readonly payoutPct: number;
}

/** An acknowledged operation, in the order its user's worker saw it acknowledged. */
export type AckedOp =
  | { readonly kind: 'register'; readonly userId: string }
  | {
      readonly kind: 'deposit';
      readonly userId: string;
      readonly account: AccountType;
      readonly amountCents: number;
      /** The deposit request row (real deposits); null for a demo top-up. */
      readonly requestId: string | null;
    }
  | {
      readonly kind: 'withdraw';
      readonly userId: string;
      readonly amountCents: number;
      readonly requestId: string;
    }
  | {
      readonly kind: 'decide';
      readonly userId: string;
      readonly requestId: string;
      readonly amountCents: number;
      readonly decision: 'approve' | 'reject';
    }
  | { readonly kind: 'cancel_bonus'; readonly userId: string }
  | ({ readonly kind: 'place'; readonly userId: string } & PlacedTrade);

/** The stored tick with the greatest atMs at or before a trade's expiry, or none. */
export interface ExitEvidence {
  readonly expiryAtMs: number;
  readonly tick: { readonly price: number; readonly atMs: number } | null;
}

export interface UserBalances {
  real: number;
  bonus: number;
  demo: number;
  withdrawal_hold: number;
  real_in_play: number;
  bonus_in_play: number;
  demo_in_play: number;
}

export const ACCOUNT_TYPES = [
  'real',
  'bonus',
  'demo',
  'withdrawal_hold',
  'real_in_play',
  'bonus_in_play',
  'demo_in_play',
] as const satisfies readonly (keyof UserBalances)[];

interface UserModel extends UserBalances {
  bonusActive: boolean;
  bonusEverCredited: boolean;
}

export function tradeStatus(trade: PlacedTrade, exit: ExitEvidence): TradeStatus {
  const tick = exit.tick;
  if (!tick || tick.atMs > exit.expiryAtMs || exit.expiryAtMs - tick.atMs > EXIT_TICK_AGE_MS_MAX)
    return 'void';
  if (tick.price === trade.entryPrice) return 'draw';
  return (trade.direction === 'UP') === tick.price > trade.entryPrice ? 'won' : 'lost';
}

/** What the trade pays back to its account: stake plus profit, the stake, or nothing. */
export function tradeReturnCents(trade: PlacedTrade, status: TradeStatus): number {
  if (status === 'lost') return 0;
  if (status !== 'won') return trade.amountCents;
  // Profit rounds down to the cent; the percentage is taken in hundredths (82.5% stays exact).
  const profit = Math.floor((trade.amountCents * Math.round(trade.payoutPct * 100)) / 10_000);
  return trade.amountCents + profit;
}

export function firstDepositBonusCents(depositCents: number): number {
  if (depositCents < BONUS_MIN_DEPOSIT_CENTS) return 0;
  return Math.min(Math.floor(depositCents / 2), BONUS_CAP_CENTS);
}

/**
 * Final balances per user once every trade has settled. `exits` holds the exit evidence of every
 * placed trade; a trade without evidence is reported by the caller, not guessed here.
 */
export function modelBalances(
  history: readonly AckedOp[],
  exits: ReadonlyMap<string, ExitEvidence>,
): Map<string, UserBalances> {
  const users = new Map<string, UserModel>();
  const user = (id: string): UserModel => {
    const found = users.get(id);
    if (!found) throw new Error(`history names user ${id} before registering it`);
    return found;
  };
  for (const op of history) {
    if (op.kind === 'register') {
      users.set(op.userId, {
        real: 0,
        bonus: 0,
        demo: DEMO_GRANT_CENTS,
        withdrawal_hold: 0,
        real_in_play: 0,
        bonus_in_play: 0,
        demo_in_play: 0,
        bonusActive: false,
        bonusEverCredited: false,
      });
      continue;
    }
    const u = user(op.userId);
    switch (op.kind) {
      case 'deposit':
        if (op.account === 'demo') {
          u.demo += op.amountCents;
          break;
        }
        u.real += op.amountCents;
        if (!u.bonusEverCredited && !u.bonusActive) {
          const bonus = firstDepositBonusCents(op.amountCents);
          if (bonus > 0) {
            u.bonus += bonus;
            u.bonusActive = true;
            u.bonusEverCredited = true;
          }
        }
        break;
      case 'withdraw':
        u.real -= op.amountCents;
        u.withdrawal_hold += op.amountCents;
        forfeit(u);
        break;
      case 'decide':
        u.withdrawal_hold -= op.amountCents;
        if (op.decision === 'reject') u.real += op.amountCents;
        break;
      case 'cancel_bonus':
        forfeit(u);
        break;
      case 'place': {
        const exit = exits.get(op.tradeId);
        if (!exit) throw new Error(`no exit evidence for trade ${op.tradeId}`);
        const back = tradeReturnCents(op, tradeStatus(op, exit));
        // The stake leaves at placement and the return arrives at settlement; once every trade has
        // settled only the difference remains, and the in-play accounts are empty.
        if (op.account === 'demo') u.demo += back - op.amountCents;
        else u.real += back - op.amountCents;
        break;
      }
    }
  }
  const result = new Map<string, UserBalances>();
  for (const [id, u] of users) {
    const { bonusActive: _active, bonusEverCredited: _credited, ...balances } = u;
    result.set(id, balances);
  }
  return result;
}

function forfeit(u: UserModel): void {
  if (!u.bonusActive) return;
  u.bonus = 0;
  u.bonusActive = false;
}

/** Money the product lost (the model expects more) and money it made up (it holds more), in cents. */
export function compareBalances(
  expected: ReadonlyMap<string, UserBalances>,
  actual: ReadonlyMap<string, Partial<UserBalances>>,
): { lostCents: number; duplicatedCents: number; differences: string[] } {
  let lostCents = 0;
  let duplicatedCents = 0;
  const differences: string[] = [];
  for (const [userId, model] of expected) {
    const held = actual.get(userId) ?? {};
    for (const type of ACCOUNT_TYPES) {
      const have = held[type] ?? 0;
      const want = model[type];
      if (have === want) continue;
      lostCents += Math.max(0, want - have);
      duplicatedCents += Math.max(0, have - want);
      differences.push(`user ${userId} ${type}: model ${want} cents, ledger ${have} cents`);
    }
  }
  return { lostCents, duplicatedCents, differences };
}
