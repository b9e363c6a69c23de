/**
 * The money rules of a stake, as pure functions: which accounts a trade's stake may come from, how
 * it splits between cash and bonus, the bonus stake cap, and the ledger entry that holds it in play.
 * Nothing here touches the database, the clock or the environment.
 */
import { bonusMaxStakeCents } from '../bonus/bonus.domain';
import { USER_ACCOUNT_TYPES, type TransferCommand, type UserAccountType } from '../ledger/ledger.domain';

/** Every account a placement may touch (all of a user's but the withdrawal hold): it locks them all up front, in one statement. */
export type StakeAccountType = Exclude<UserAccountType, 'withdrawal_hold'>;
export const STAKE_ACCOUNT_TYPES: readonly StakeAccountType[] = USER_ACCOUNT_TYPES.filter(
  (type): type is StakeAccountType => type !== 'withdrawal_hold',
);

/** The balances of a user's stake accounts, in cents. */
export type StakeBalances = Record<StakeAccountType, number>;

/** The book a trade is staked from: real (cash, then bonus) or demo. */
export type StakeBook = 'real' | 'demo';

export interface StakeRequest {
  readonly accountType: StakeBook;
  readonly amountCents: number;
}

export interface StakeSplit {
  /** From `real` for a real trade; the whole stake, from `demo`, for a demo trade. */
  readonly fromCashCents: number;
  readonly fromBonusCents: number;
}

export type StakeDecision =
  | ({ readonly ok: true } & StakeSplit)
  | { readonly ok: false; readonly problem: 'insufficient_funds' }
  | { readonly ok: false; readonly problem: 'bonus_stake_cap'; readonly capCents: number };

/**
 * Where a stake comes from: demo trades from `demo`; real trades from cash first, then bonus, and
 * with an active bonus at most `bonusMaxStakeCents` of it (the bonus rules). `activeBonusCents` is the credited
 * amount of the user's active bonus, undefined when none is active.
 */
export function splitStake(
  funds: Pick<StakeBalances, 'real' | 'bonus' | 'demo'>,
  activeBonusCents: number | undefined,
  stake: StakeRequest,
): StakeDecision {
  if (stake.accountType === 'demo') {
    if (funds.demo < stake.amountCents) return { ok: false, problem: 'insufficient_funds' };
    return { ok: true, fromCashCents: stake.amountCents, fromBonusCents: 0 };
  }
  if (activeBonusCents !== undefined) {
    const capCents = bonusMaxStakeCents(activeBonusCents);
    if (stake.amountCents > capCents) return { ok: false, problem: 'bonus_stake_cap', capCents };
  }
  const fromCashCents = Math.min(funds.real, stake.amountCents);
  const fromBonusCents = stake.amountCents - fromCashCents;
  if (fromBonusCents > funds.bonus) return { ok: false, problem: 'insufficient_funds' };
  return { ok: true, fromCashCents, fromBonusCents };
}

/**
 * The funds a user has left once a decided stake is held: what their next stake in the same batch
 * is decided on. Demo stakes come from `demo`; real ones from `real` and `bonus` as split.
 */
export function fundsAfterStake<T extends Pick<StakeBalances, 'real' | 'bonus' | 'demo'>>(
  funds: T,
  accountType: StakeBook,
  split: StakeSplit,
): T {
  if (accountType === 'demo') return { ...funds, demo: funds.demo - split.fromCashCents };
  return { ...funds, real: funds.real - split.fromCashCents, bonus: funds.bonus - split.fromBonusCents };
}

/** One ledger entry per trade's stake, ever. */
export function stakeHoldKey(tradeId: string): string {
  return `trade:${tradeId}:stake`;
}

/** The entry that moves a decided stake from the user's funds into their in-play accounts. */
export function stakeHoldTransfer(
  hold: { readonly tradeId: string; readonly userId: string; readonly accountType: StakeBook },
  split: StakeSplit,
): TransferCommand {
  const owner = hold.userId;
  const postings: { account: { owner: string; type: UserAccountType }; amountCents: number }[] = [];
  if (hold.accountType === 'demo') {
    postings.push(
      { account: { owner, type: 'demo' }, amountCents: -split.fromCashCents },
      { account: { owner, type: 'demo_in_play' }, amountCents: split.fromCashCents },
    );
  } else {
    if (split.fromCashCents > 0) {
      postings.push(
        { account: { owner, type: 'real' }, amountCents: -split.fromCashCents },
        { account: { owner, type: 'real_in_play' }, amountCents: split.fromCashCents },
      );
    }
    if (split.fromBonusCents > 0) {
      postings.push(
        { account: { owner, type: 'bonus' }, amountCents: -split.fromBonusCents },
        { account: { owner, type: 'bonus_in_play' }, amountCents: split.fromBonusCents },
      );
    }
  }
  return {
    kind: 'trade_stake',
    idempotencyKey: stakeHoldKey(hold.tradeId),
    ref: { tradeId: hold.tradeId },
    postings,
  };
}
