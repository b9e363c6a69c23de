import { sql, type Transaction } from 'kysely';
import { preparedStatement, uncachedTextArray, type Database, type SqlTransaction } from '@updown/runtime';

/**
 * The wallet's lock protocol: which rows a money command locks and in what order. Every command
 * that moves or decides money (placement, settlement, deposit, withdrawal, approval, demo top-up,
 * bonus cancel, expiry and sweep) takes its locks through the functions below, level by level:
 *
 *   1. `wallet`   the user's wallet: a transaction-scoped advisory lock per user, in user id
 *                 order. Serialises one user's wallet commands (the bonus rules read "was a bonus
 *                 ever credited" and must not see two deposits both answer no). Placement and
 *                 settlement skip it: they never wait on a wallet command's rows before level 3.
 *   2. `claim`    the rows that claim the command's work and are owned by the caller: the due
 *                 trades a settlement batch locks, the payment request an approval decides.
 *   3. `bonus`    active bonus rows, in bonus id order (`for no key update`).
 *   4. `accounts` ledger accounts, every one the command will touch, in ONE statement, in account
 *                 id order (`for update`).
 *   5. `books`    the risk books of the pairs whose open real trades the command changes (the
 *                 order service's `risk_pairs`, README "Risk controls"), in pair order, by the
 *                 caller's statement: placement checks its caps under them, settlement takes
 *                 settled trades out of them. Last, so a command holds a pair's book only for
 *                 the end of its transaction, and waits for nothing while holding it.
 *
 * A command may skip levels but never returns to a lower one, and takes level 4 once: the
 * transfers it then posts may only touch accounts it already holds (`transfer` and
 * `transferBatch` check this). With every command ascending the same ladder, two commands can
 * wait for each other only in one direction, so PostgreSQL never has a deadlock to break.
 *
 * The ladder is tracked per transaction; a step down throws `LockOrderViolation` before any lock
 * is requested, so a command written against the protocol fails in its tests, not under load.
 */

export const LOCK_LEVELS = ['wallet', 'claim', 'bonus', 'accounts', 'books'] as const;
export type LockLevel = (typeof LOCK_LEVELS)[number];

/** A command asked for a lock below one it already holds, or for accounts twice. A programming error. */
export class LockOrderViolation extends Error {
  constructor(message: string) {
    super(`Lock protocol: ${message}`);
    this.name = 'LockOrderViolation';
  }
}

interface LadderState {
  /** Index in LOCK_LEVELS of the highest level taken; -1 before any. */
  level: number;
  /** The account codes taken at level 4, once it has been taken. */
  accounts: ReadonlySet<string> | undefined;
}

const ladders = new WeakMap<SqlTransaction, LadderState>();

function ladderOf(trx: SqlTransaction): LadderState {
  let state = ladders.get(trx);
  if (!state) {
    state = { level: -1, accounts: undefined };
    ladders.set(trx, state);
  }
  return state;
}

/** Moves the transaction's ladder to `level`, refusing a step down (and a second level-4 step). */
function step(trx: SqlTransaction, level: LockLevel): LadderState {
  const state = ladderOf(trx);
  const index = LOCK_LEVELS.indexOf(level);
  if (index < state.level) {
    throw new LockOrderViolation(`${level} requested after ${LOCK_LEVELS[state.level]}`);
  }
  if (index === state.level && level === 'accounts') {
    throw new LockOrderViolation('ledger accounts are locked once per command, all together');
  }
  state.level = index;
  return state;
}

/** The highest level this transaction holds, for tests and assertions. */
export function heldLockLevel(trx: SqlTransaction): LockLevel | undefined {
  const { level } = ladderOf(trx);
  return level < 0 ? undefined : LOCK_LEVELS[level];
}

/** Level 1: the wallets of these users, in id order. */
export async function lockWallets(trx: Transaction<Database>, userIds: readonly string[]): Promise<void> {
  step(trx, 'wallet');
  const ids = [...new Set(userIds)].sort();
  if (ids.length === 0) return;
  await sql`
    select pg_advisory_xact_lock(hashtextextended('wallet:' || u.id, 0))
    from unnest(${ids}::text[]) with ordinality as u (id, ord)
    order by u.ord`.execute(trx);
}

/**
 * Level 2: runs the caller's claim statement (its own rows, e.g. `select … for update` of due
 * trades, or the guarded update of a pending payment request) as this command's claim step.
 */
export async function claimRows<T>(trx: Transaction<Database>, claim: () => Promise<T>): Promise<T> {
  step(trx, 'claim');
  return claim();
}

/**
 * Level 5: runs the caller's statement locking the risk books of its pairs (`select … order by
 * pair for update`) as this command's books step.
 */
export async function lockBooks<T>(trx: SqlTransaction, lock: () => Promise<T>): Promise<T> {
  step(trx, 'books');
  return lock();
}

export interface LockedBonus {
  readonly id: string;
  readonly userId: string;
  readonly amountCents: number;
}

/** Level 3: the active bonus rows of these users, in bonus id order. */
export async function lockActiveBonuses(
  trx: Transaction<Database>,
  userIds: readonly string[],
): Promise<LockedBonus[]> {
  step(trx, 'bonus');
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const { rows } = await sql<{ id: string; user_id: string; amount_cents: number }>`
    select id, user_id, amount_cents from bonuses
    where user_id = any(${ids}::uuid[]) and status = 'active'
    order by id for no key update`.execute(trx);
  return rows.map((r) => ({ id: r.id, userId: r.user_id, amountCents: Number(r.amount_cents) }));
}

/**
 * Prepared: one text whatever the number of codes, and it is on the path of every placement. The
 * codes go as one array literal (per-user codes, so their quoted forms are not kept).
 */
const selectAccountsForUpdate = preparedStatement<{ code: string; balance: number }, [codes: string]>(`
  select code, balance from ledger_accounts where code = any($1::text[])
  order by id for update`);

const same = (code: string) => code;

/**
 * Level 4: every ledger account the command will touch, by code, in one statement and in id
 * order. Returns the balances the command decides on (codes of accounts never opened are absent).
 */
export async function lockAccounts(
  trx: SqlTransaction,
  codes: readonly string[],
): Promise<Map<string, number>> {
  const state = step(trx, 'accounts');
  const held = new Set(codes);
  state.accounts = held;
  if (held.size === 0) return new Map();
  const { rows } = await selectAccountsForUpdate(trx, uncachedTextArray([...held], same));
  const balances = new Map<string, number>();
  for (const row of rows) balances.set(row.code, Number(row.balance));
  return balances;
}

/**
 * For a command that reads balances after taking level 4 and decides on them (a bonus conversion
 * moving a balance it reads): throws unless these accounts are among the ones it holds.
 */
export function assertAccountsHeld(trx: SqlTransaction, codes: readonly string[]): void {
  const held = ladderOf(trx).accounts;
  const missing = held ? codes.filter((code) => !held.has(code)) : [...codes];
  if (missing.length > 0) {
    throw new LockOrderViolation(`reading ${missing.join(', ')}, which the command did not lock`);
  }
}

/**
 * Called by `transfer` and `transferBatch` before they lock the accounts they post to: when the
 * command already took level 4, those accounts must be among the ones it holds; otherwise the
 * posting's own one-statement lock is the command's level-4 step.
 */
export function enterPostingLock(trx: SqlTransaction, codes: readonly string[]): void {
  const state = ladderOf(trx);
  if (state.accounts) {
    const missing = codes.filter((code) => !state.accounts!.has(code));
    if (missing.length > 0) {
      throw new LockOrderViolation(
        `posting to ${missing.join(', ')}, which the command did not lock with its accounts`,
      );
    }
    return;
  }
  step(trx, 'accounts');
  state.accounts = new Set(codes);
}
