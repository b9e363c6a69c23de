import { sql, type Expression, type RawBuilder } from 'kysely';
import type { SqlTransaction } from '@updown/runtime';
import { userAccountCode } from '../ledger/ledger.domain';
import { InsufficientFunds } from '../ledger/ledger.errors';
import { transfer, transferBatch } from '../ledger/ledger.repository';
import type { TransferCommand } from '../ledger/ledger.domain';
import { lockAccounts, LockOrderViolation } from '../locks/lock-protocol';
import {
  fundsAfterStake,
  splitStake,
  STAKE_ACCOUNT_TYPES,
  stakeHoldTransfer,
  type StakeBalances,
  type StakeBook,
  type StakeSplit,
} from './stake.domain';
import { BonusStakeCapExceeded } from './stake.errors';

/**
 * The wallet's side of placing trades: lock the stake accounts (level 4 of the lock protocol, the
 * only level placement takes), read the stake terms, hold the stakes. Each takes the transaction
 * first and works on many users at once, so a batch of placements costs the same statements as one.
 */

/** The stake balances this transaction locked, per user: what `holdStakes` decides on. */
const lockedStakes = new WeakMap<SqlTransaction, Map<string, StakeBalances>>();

/**
 * Locks all six stake accounts (real, bonus, demo and their in-play accounts) of each user, in one
 * statement in account id order, and returns their balances. Taking the in-play accounts here too
 * means the stake hold that follows locks nothing new, so placement never waits for a row while
 * holding one a settlement or a bonus command could be waiting for. Accounts never opened read 0.
 */
export async function lockStakeAccounts(
  trx: SqlTransaction,
  userIds: readonly string[],
): Promise<Map<string, StakeBalances>> {
  const ids = [...new Set(userIds)];
  const codes: string[] = [];
  for (const id of ids) for (const type of STAKE_ACCOUNT_TYPES) codes.push(userAccountCode(id, type));
  const balances = await lockAccounts(trx, codes);
  // The caller's copy and the one `holdStakes` keeps and moves on are separate objects.
  const result = new Map<string, StakeBalances>();
  const kept = new Map<string, StakeBalances>();
  let c = 0;
  for (const id of ids) {
    const own = {} as StakeBalances;
    for (const type of STAKE_ACCOUNT_TYPES) own[type] = balances.get(codes[c++]!) ?? 0;
    result.set(id, own);
    kept.set(id, { ...own });
  }
  lockedStakes.set(trx, kept);
  return result;
}

export interface StakeTermsColumns {
  /** The platform's stake ceiling (null only when `platform_settings` has no row). */
  readonly stakeCentsMax: RawBuilder<number | null>;
  /** The credited amount of the user's active bonus; null when none is active. */
  readonly activeBonusCents: RawBuilder<number | null>;
}

/**
 * The terms a stake is decided on besides balances, as scalar subqueries for the caller's one
 * read after `lockStakeAccounts` (placement reads them with the pair in one round trip). They must
 * be read in a statement that starts after the lock is granted: a bonus granted or closed by a
 * command that held the accounts is then visible, as the balances it moved are. `userId` is a
 * user's id, or a column of the caller's statement holding one (a batch reads the terms of all
 * its users in one statement, one row per user).
 */
export function stakeTermsColumns(userId: string | Expression<string>): StakeTermsColumns {
  return {
    stakeCentsMax: sql<number | null>`(select max_stake_cents from platform_settings)`,
    activeBonusCents: sql<
      number | null
    >`(select amount_cents from bonuses where user_id = ${userId} and status = 'active' limit 1)`,
  };
}

export interface StakeHold {
  readonly tradeId: string;
  readonly userId: string;
  readonly accountType: StakeBook;
  readonly amountCents: number;
  /** The user's active bonus amount as read through `stakeTermsColumns`; undefined when none. */
  readonly activeBonusCents: number | undefined;
  readonly occurredAt: Date;
}

export interface HeldStake extends StakeSplit {
  readonly tradeId: string;
}

/**
 * Holds the stakes: decides each one's split (`planStakeHolds`) and posts them (`postStakeHolds`).
 * A refused stake throws before anything is written.
 */
export async function holdStakes(
  trx: SqlTransaction,
  holds: readonly StakeHold[],
): Promise<readonly HeldStake[]> {
  const plan = planStakeHolds(trx, holds);
  await postStakeHolds(trx, plan);
  return plan.held;
}

/** The stakes `planStakeHolds` decided, to be posted by `postStakeHolds` in the same transaction. */
export interface StakeHoldPlan {
  /** Each stake's cash/bonus split, in the order given. */
  readonly held: readonly HeldStake[];
  readonly commands: readonly (TransferCommand & { readonly occurredAt: Date })[];
  /** Each user's balances once every hold of the plan is posted. */
  readonly balancesAfter: ReadonlyMap<string, StakeBalances>;
}

/**
 * Decides each stake's cash/bonus split on the balances `lockStakeAccounts` locked (in the order
 * given, each seeing the ones before it) and applies the bonus stake cap; writes nothing. Throws
 * `InsufficientFunds` or `BonusStakeCapExceeded` for a refused stake. The splits are known before
 * the holds are posted, so a caller can write what depends on them alongside the post.
 */
export function planStakeHolds(trx: SqlTransaction, holds: readonly StakeHold[]): StakeHoldPlan {
  const locked = lockedStakes.get(trx);
  const balancesAfter = new Map<string, StakeBalances>();
  const held: HeldStake[] = [];
  const commands: (TransferCommand & { readonly occurredAt: Date })[] = [];
  for (const hold of holds) {
    const start = locked?.get(hold.userId);
    if (!start) {
      throw new LockOrderViolation(`stake hold for ${hold.userId}, whose stake accounts were not locked`);
    }
    const funds = balancesAfter.get(hold.userId) ?? start;
    const decision = splitStake(funds, hold.activeBonusCents, hold);
    if (!decision.ok) {
      if (decision.problem === 'bonus_stake_cap') throw new BonusStakeCapExceeded(decision.capCents);
      throw new InsufficientFunds(
        userAccountCode(hold.userId, hold.accountType === 'demo' ? 'demo' : 'bonus'),
      );
    }
    const split = { fromCashCents: decision.fromCashCents, fromBonusCents: decision.fromBonusCents };
    balancesAfter.set(hold.userId, fundsAfterStake(funds, hold.accountType, split));
    held.push({ tradeId: hold.tradeId, ...split });
    commands.push({ ...stakeHoldTransfer(hold, split), occurredAt: hold.occurredAt });
  }
  return { held, commands, balancesAfter };
}

/**
 * Posts a plan's holds: one `trade_stake` entry per trade moving the stake into the in-play
 * accounts (the prepared single transfer for one, one statement set for a batch), and moves the
 * locked balances on, so a later plan in the transaction decides on them.
 */
export async function postStakeHolds(trx: SqlTransaction, plan: StakeHoldPlan): Promise<void> {
  const { commands } = plan;
  if (commands.length === 1) await transfer(trx, commands[0]!);
  else if (commands.length > 1) await transferBatch(trx, commands);
  const locked = lockedStakes.get(trx)!;
  for (const [userId, funds] of plan.balancesAfter) {
    const state = locked.get(userId)!;
    state.real = funds.real;
    state.bonus = funds.bonus;
    state.demo = funds.demo;
  }
}
