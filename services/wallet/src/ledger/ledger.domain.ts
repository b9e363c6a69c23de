/**
 * Pure rules of the double-entry ledger: account naming, shard choice and the shape of a valid
 * transfer. Nothing here touches the database, the clock or the environment.
 */

/** A user's accounts. Stakes and withdrawals move money into holds; settlement moves it out. */
export const USER_ACCOUNT_TYPES = [
  'real',
  'bonus',
  'demo',
  'real_in_play',
  'bonus_in_play',
  'demo_in_play',
  'withdrawal_hold',
] as const;
export type UserAccountType = (typeof USER_ACCOUNT_TYPES)[number];

/** The platform's own accounts. Each is spread over several rows (shards) so no single row is hot. */
export const SYSTEM_ACCOUNT_TYPES = [
  'house_real',
  'house_demo',
  'payments_clearing',
  'bonus_pool',
  'demo_issuance',
] as const;
export type SystemAccountType = (typeof SYSTEM_ACCOUNT_TYPES)[number];

export const SYSTEM_ACCOUNT_SHARDS = 16;

export type AccountRef =
  { readonly owner: string; readonly type: UserAccountType } | { readonly system: SystemAccountType };

export interface Posting {
  readonly account: AccountRef;
  /** Positive raises the account's balance, negative lowers it. */
  readonly amountCents: number;
}

export interface TransferCommand {
  /** What the movement is, shown to users as the transaction type: `deposit`, `trade_stake`, ... */
  readonly kind: string;
  /** One entry per key, ever: a repeat returns the first entry and moves nothing. */
  readonly idempotencyKey: string;
  readonly postings: readonly Posting[];
  /** The business row this entry belongs to, e.g. `{tradeId}`. */
  readonly ref?: Readonly<Record<string, unknown>>;
  /**
   * The shard of every system account this entry posts to, when the caller chooses it (an
   * integer from 0 to `SYSTEM_ACCOUNT_SHARDS - 1`); otherwise it is derived from the key
   * (`shardFor`). It must be a function of the command alone, so a retry names the same accounts.
   */
  readonly systemShard?: number;
}

/** The largest single posting accepted: $10 billion in cents, far inside the safe-integer range. */
export const POSTING_AMOUNT_CENTS_MAX = 1_000_000_000_000;
export const POSTINGS_PER_ENTRY_MAX = 64;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KIND = /^[a-z][a-z0-9_]{0,63}$/;

export function isUserAccountType(value: string): value is UserAccountType {
  return (USER_ACCOUNT_TYPES as readonly string[]).includes(value);
}

export function userAccountCode(owner: string, type: UserAccountType): string {
  return `user:${owner.toLowerCase()}:${type}`;
}

export function systemAccountCode(type: SystemAccountType, shard: number): string {
  return `${type}:${String(shard).padStart(2, '0')}`;
}

/**
 * The shard of a system account that an entry posts to. Derived from the idempotency key so a
 * retried transfer names the same accounts (and so the same request hash) as the first attempt.
 */
export function shardFor(idempotencyKey: string): number {
  // FNV-1a: cheap, stable across processes, and spreads consecutive keys well.
  let hash = 0x811c9dc5;
  for (let i = 0; i < idempotencyKey.length; i++) {
    hash ^= idempotencyKey.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % SYSTEM_ACCOUNT_SHARDS;
}

/**
 * A shard chosen by a user's id: the last hex digit of the UUID, which is random in v4 and v7
 * UUIDs alike. Settlement posts each trade's house side to its owner's shard, so batches of
 * disjoint sets of users (`ownerShard(id) % n`, n dividing the shard count) lock disjoint house
 * rows and can run side by side; PostgreSQL computes the same digit as
 * `get_byte(uuid_send(id), 15) % 16`.
 */
export function ownerShard(ownerId: string): number {
  if (!UUID.test(ownerId)) throw new RangeError(`owner ${ownerId} is not a UUID`);
  return parseInt(ownerId.slice(-1), 16) % SYSTEM_ACCOUNT_SHARDS;
}

export function accountCode(ref: AccountRef, idempotencyKey: string, systemShard?: number): string {
  return 'system' in ref
    ? systemAccountCode(ref.system, systemShard ?? shardFor(idempotencyKey))
    : userAccountCode(ref.owner, ref.type);
}

/** The account codes a transfer posts to, in the order of its postings. */
export function commandAccountCodes(command: TransferCommand): string[] {
  return command.postings.map((p) => accountCode(p.account, command.idempotencyKey, command.systemShard));
}

export interface ResolvedPosting {
  readonly code: string;
  readonly amountCents: number;
}

export type TransferProblem =
  | 'kind'
  | 'idempotency_key'
  | 'too_few_postings'
  | 'too_many_postings'
  | 'amount_not_integer'
  | 'amount_zero'
  | 'amount_too_large'
  | 'unbalanced'
  | 'duplicate_account'
  | 'bad_owner'
  | 'system_shard';

/**
 * Checks a transfer and names its accounts. Returns the postings sorted by account code (the order
 * rows are locked in, which keeps concurrent transfers free of deadlocks) or the first problem.
 */
export function resolveTransfer(
  command: TransferCommand,
): { ok: true; postings: ResolvedPosting[] } | { ok: false; problem: TransferProblem; message: string } {
  const fail = (problem: TransferProblem, message: string) => ({ ok: false as const, problem, message });
  if (!KIND.test(command.kind)) return fail('kind', `invalid entry kind "${command.kind}"`);
  if (command.idempotencyKey.length === 0 || command.idempotencyKey.length > 200) {
    return fail('idempotency_key', 'idempotency key must be 1-200 characters');
  }
  if (command.postings.length < 2) return fail('too_few_postings', 'an entry needs at least two postings');
  if (command.postings.length > POSTINGS_PER_ENTRY_MAX) {
    return fail('too_many_postings', `an entry has at most ${POSTINGS_PER_ENTRY_MAX} postings`);
  }
  const shard = command.systemShard;
  if (shard !== undefined && !(Number.isInteger(shard) && shard >= 0 && shard < SYSTEM_ACCOUNT_SHARDS)) {
    return fail('system_shard', `system shard must be an integer from 0 to ${SYSTEM_ACCOUNT_SHARDS - 1}`);
  }
  let sum = 0;
  const seen = new Set<string>();
  const postings: ResolvedPosting[] = [];
  for (const posting of command.postings) {
    if (!Number.isSafeInteger(posting.amountCents))
      return fail('amount_not_integer', 'amounts are integer cents');
    if (posting.amountCents === 0) return fail('amount_zero', 'a posting cannot be zero');
    if (Math.abs(posting.amountCents) > POSTING_AMOUNT_CENTS_MAX)
      return fail('amount_too_large', 'posting amount is too large');
    if ('owner' in posting.account && !UUID.test(posting.account.owner)) {
      return fail('bad_owner', 'account owner must be a UUID');
    }
    const code = accountCode(posting.account, command.idempotencyKey, shard);
    if (seen.has(code)) return fail('duplicate_account', `account ${code} appears twice in one entry`);
    seen.add(code);
    sum += posting.amountCents;
    postings.push({ code, amountCents: posting.amountCents });
  }
  if (sum !== 0) return fail('unbalanced', `postings sum to ${sum}, not zero`);
  postings.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { ok: true, postings };
}

/** A canonical text of what a transfer moves, hashed to tell a true retry from a reused key. */
export function canonicalTransfer(kind: string, postings: readonly ResolvedPosting[]): string {
  return JSON.stringify([kind, postings.map((p) => [p.code, p.amountCents])]);
}
