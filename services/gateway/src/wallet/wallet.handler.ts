import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { DomainError, type Clock, type Database } from '@updown/runtime';
import {
  getUserBalances,
  IdempotencyConflict,
  transfer,
  transferBatch,
  type BatchCommand,
} from '@updown/wallet';
import { endActiveBonus, grantFirstDepositBonus } from './bonus.handler';
import type { PaymentProvider } from './payment-provider';
import { DemoWithdrawal, NoActiveBonus, PaymentFailed } from './wallet.domain';
import {
  findRequestByIdempotencyKey,
  insertPaymentRequest,
  latestBonus,
  lockActiveBonus,
  lockUser,
  readSettings,
  type PaymentRequestRow,
} from './wallet.repository';

/**
 * Wallet commands. Each owns its transaction: lock the user, decide, write the request row, the
 * ledger entry and the bonus change together. Amounts arrive in checked cents.
 */

export interface WalletDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly payments: PaymentProvider;
}

export interface CommandOutcome {
  readonly status: 'completed' | 'pending';
  readonly request: PaymentRequestRow | null;
}

class UserNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'User not found');
  }
}

async function lockOrFail(trx: Transaction<Database>, userId: string): Promise<void> {
  if (!(await lockUser(trx, userId))) throw new UserNotFound();
}

/**
 * The answer to a retried request: the first request made with the key, looked up under the user's
 * lock so a retry racing the original sees it committed. The same key for another amount is refused.
 */
async function replayed(
  trx: Transaction<Database>,
  table: 'deposit_requests' | 'withdrawal_requests',
  input: { userId: string; amountCents: number; idempotencyKey?: string },
): Promise<CommandOutcome | undefined> {
  if (!input.idempotencyKey) return undefined;
  const earlier = await findRequestByIdempotencyKey(trx, table, input.userId, input.idempotencyKey);
  if (!earlier) return undefined;
  if (earlier.amount_cents !== input.amountCents) throw new IdempotencyConflict(input.idempotencyKey);
  return { status: earlier.status === 'pending' ? 'pending' : 'completed', request: earlier };
}

export async function deposit(
  deps: WalletDeps,
  input: { userId: string; amountCents: number; accountType: 'real' | 'demo'; idempotencyKey?: string },
): Promise<CommandOutcome> {
  const now = deps.clock.now();
  if (input.accountType === 'demo') {
    // Play money: issued at once, no provider, no request row, never a bonus.
    await deps.db.transaction().execute(async (trx) => {
      await lockOrFail(trx, input.userId);
      // Demo top-ups keep no request row; the ledger's own key makes a retry move nothing.
      await transfer(trx, {
        kind: 'deposit',
        idempotencyKey: input.idempotencyKey
          ? `deposit:demo:${input.userId}:${input.idempotencyKey}`
          : `deposit:demo:${randomUUID()}`,
        postings: [
          { account: { system: 'demo_issuance' }, amount: -input.amountCents },
          { account: { owner: input.userId, type: 'demo' }, amount: input.amountCents },
        ],
        occurredAt: new Date(now),
      });
    });
    return { status: 'completed', request: null };
  }
  return deps.db.transaction().execute(async (trx) => {
    await lockOrFail(trx, input.userId);
    const earlier = await replayed(trx, 'deposit_requests', input);
    if (earlier) return earlier;
    const settings = await readSettings(trx);
    const id = randomUUID();
    if (settings.require_deposit_approval) {
      const request = await insertPaymentRequest(trx, 'deposit_requests', {
        id,
        userId: input.userId,
        amountCents: input.amountCents,
        status: 'pending',
        idempotencyKey: input.idempotencyKey,
        createdAt: new Date(now),
      });
      return { status: 'pending' as const, request };
    }
    const providerRef = await charge(deps.payments, input.userId, input.amountCents, id);
    const request = await insertPaymentRequest(trx, 'deposit_requests', {
      id,
      userId: input.userId,
      amountCents: input.amountCents,
      status: 'approved',
      providerRef,
      idempotencyKey: input.idempotencyKey,
      createdAt: new Date(now),
    });
    await creditRealDeposit(trx, {
      userId: input.userId,
      amountCents: input.amountCents,
      depositId: id,
      now,
    });
    return { status: 'completed' as const, request };
  });
}

/**
 * Charges through the provider. It runs inside the deposit's transaction on purpose: a declined
 * charge rolls the request back, and the request id is the provider's reference, so a processor
 * that deduplicates on it never charges one request twice.
 */
export async function charge(
  payments: PaymentProvider,
  userId: string,
  amountCents: number,
  reference: string,
): Promise<string> {
  const result = await payments.charge({ userId, amountCents, reference });
  if (result.status !== 'succeeded') throw new PaymentFailed();
  return result.providerRef;
}

/**
 * The money movement of a real deposit (at once, or on approval) and the first-deposit bonus it may
 * earn, posted by one `transferBatch`: it locks the user's accounts and the system accounts (the
 * clearing account, a bonus-pool shard) together in id order, the order settlement locks them in.
 * Posting the deposit and then the bonus as two transfers held the user's `real` account while
 * waiting for a bonus-pool shard that a settlement batch could hold while waiting for that `real`.
 */
export async function creditRealDeposit(
  trx: Transaction<Database>,
  input: { userId: string; amountCents: number; depositId: string; now: number },
): Promise<void> {
  const bonus = await grantFirstDepositBonus(trx, {
    userId: input.userId,
    depositCents: input.amountCents,
    depositId: input.depositId,
    now: input.now,
  });
  const deposit: BatchCommand = {
    kind: 'deposit',
    idempotencyKey: `deposit:${input.depositId}`,
    postings: [
      { account: { system: 'payments_clearing' }, amount: -input.amountCents },
      { account: { owner: input.userId, type: 'real' }, amount: input.amountCents },
    ],
    ref: { depositId: input.depositId },
    occurredAt: new Date(input.now),
  };
  await transferBatch(trx, bonus ? [deposit, bonus] : [deposit]);
}

/**
 * A withdrawal request: the cash moves to `withdrawal_hold` at once (more than `real` holds is
 * `InsufficientFunds`, and nothing is written), and an active bonus is forfeited in the same
 * transaction, as the bonus policy says.
 */
export async function requestWithdrawal(
  deps: WalletDeps,
  input: { userId: string; amountCents: number; accountType: 'real' | 'demo'; idempotencyKey?: string },
): Promise<CommandOutcome> {
  if (input.accountType === 'demo') throw new DemoWithdrawal();
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    await lockOrFail(trx, input.userId);
    const earlier = await replayed(trx, 'withdrawal_requests', input);
    if (earlier) return earlier;
    // The bonus row before the cash accounts: a settlement paying this user takes them in that order.
    await lockActiveBonus(trx, input.userId);
    const id = randomUUID();
    const request = await insertPaymentRequest(trx, 'withdrawal_requests', {
      id,
      userId: input.userId,
      amountCents: input.amountCents,
      status: 'pending',
      idempotencyKey: input.idempotencyKey,
      createdAt: new Date(now),
    });
    await transfer(trx, {
      kind: 'withdrawal',
      idempotencyKey: `withdrawal:${id}:hold`,
      postings: [
        { account: { owner: input.userId, type: 'real' }, amount: -input.amountCents },
        { account: { owner: input.userId, type: 'withdrawal_hold' }, amount: input.amountCents },
      ],
      ref: { withdrawalId: id },
      occurredAt: new Date(now),
    });
    await endActiveBonus(trx, { userId: input.userId, status: 'forfeited', now });
    return { status: 'pending' as const, request };
  });
}

export async function cancelBonus(deps: WalletDeps, userId: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await lockOrFail(trx, userId);
    const ended = await endActiveBonus(trx, { userId, status: 'forfeited', now });
    if (!ended) throw new NoActiveBonus();
  });
}

export async function loadWallet(db: Kysely<Database>, userId: string) {
  const [balances, bonus] = await Promise.all([getUserBalances(db, userId), latestBonus(db, userId)]);
  return { balances, bonus };
}
