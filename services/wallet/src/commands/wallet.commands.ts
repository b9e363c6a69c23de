import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { bonusEndAccounts, endLockedBonus } from '../bonus/bonus.handler';
import { latestBonus } from '../bonus/bonus.repository';
import { IdempotencyConflict } from '../ledger/ledger.errors';
import { accountCode, userAccountCode } from '../ledger/ledger.domain';
import { getUserBalances, transfer } from '../ledger/ledger.repository';
import { lockAccounts, lockActiveBonuses } from '../locks/lock-protocol';
import { chargeIntent, waitForIntent, type PaymentDeps } from '../payments/payment-intents';
import {
  findPendingIntentByKey,
  insertIntent,
  type PaymentIntentRow,
} from '../payments/payment-intents.repository';
import { IdentityNotVerified, isClearedForWithdrawal } from '../clearance/withdrawal-clearance';
import { readSettings } from '../settings/settings.repository';
import { lockUserWallet } from './user-wallet';
import { DemoWithdrawal, NoActiveBonus, PaymentFailed } from './wallet.domain';
import {
  findRequestByIdempotencyKey,
  insertPaymentRequest,
  type PaymentRequestRow,
} from './requests.repository';

/**
 * Wallet commands. Each takes its locks through the lock protocol (levels 1, 3 and 4 of
 * `locks/lock-protocol.ts`, where the order is written), decides, and writes the request row, the ledger
 * entry and the bonus change together. A real deposit charges the provider between two
 * transactions (see `payment-intents.ts`). Amounts arrive in checked cents.
 */

export type WalletDeps = PaymentDeps;

export interface CommandOutcome {
  readonly status: 'completed' | 'pending';
  readonly request: PaymentRequestRow | null;
}

/**
 * The answer to a retried request: the first request made with the key, looked up under the user's
 * wallet lock so a retry racing the original sees it committed. The same key for another amount is refused.
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

type DepositStep =
  { readonly done: CommandOutcome } | { readonly waitFor: string } | { readonly charge: PaymentIntentRow };

export async function deposit(
  deps: WalletDeps,
  input: { userId: string; amountCents: number; accountType: 'real' | 'demo'; idempotencyKey?: string },
): Promise<CommandOutcome> {
  if (input.accountType === 'demo') {
    await demoTopUp(deps, input);
    return { status: 'completed', request: null };
  }
  for (;;) {
    const step = await deps.db.transaction().execute(async (trx): Promise<DepositStep> => {
      const now = deps.clock.nowMs();
      await lockUserWallet(trx, input.userId);
      const earlier = await replayed(trx, 'deposit_requests', input);
      if (earlier) return { done: earlier };
      if (input.idempotencyKey) {
        const inFlight = await findPendingIntentByKey(trx, input.userId, input.idempotencyKey);
        if (inFlight) {
          if (inFlight.amount_cents !== input.amountCents)
            throw new IdempotencyConflict(input.idempotencyKey);
          return { waitFor: inFlight.id };
        }
      }
      const settings = await readSettings(trx);
      if (settings.require_deposit_approval) {
        const request = await insertPaymentRequest(trx, 'deposit_requests', {
          id: randomUUID(),
          userId: input.userId,
          amountCents: input.amountCents,
          status: 'pending',
          idempotencyKey: input.idempotencyKey,
          createdAt: new Date(now),
        });
        return { done: { status: 'pending', request } };
      }
      const intent = await insertIntent(trx, {
        id: randomUUID(),
        requestId: randomUUID(),
        userId: input.userId,
        amountCents: input.amountCents,
        kind: 'deposit',
        idempotencyKey: input.idempotencyKey,
        createdAt: new Date(now),
      });
      return { charge: intent };
    });
    if ('done' in step) return step.done;
    if ('waitFor' in step) {
      // The same key's first request is charging: answer as it does once it has its result.
      await waitForIntent(deps.db, step.waitFor);
      continue;
    }
    const { intent, request } = await chargeIntent(deps, step.charge);
    if (intent.status !== 'succeeded' || !request) throw new PaymentFailed();
    return { status: 'completed', request };
  }
}

/** Play money: issued at once, no provider, no request row, never a bonus. */
async function demoTopUp(
  deps: WalletDeps,
  input: { userId: string; amountCents: number; idempotencyKey?: string },
): Promise<void> {
  const now = deps.clock.nowMs();
  await deps.db.transaction().execute(async (trx) => {
    await lockUserWallet(trx, input.userId);
    // Demo top-ups keep no request row; the ledger's own key makes a retry move nothing.
    const key = input.idempotencyKey
      ? `deposit:demo:${input.userId}:${input.idempotencyKey}`
      : `deposit:demo:${randomUUID()}`;
    await lockAccounts(trx, [
      accountCode({ system: 'demo_issuance' }, key),
      userAccountCode(input.userId, 'demo'),
    ]);
    await transfer(trx, {
      kind: 'deposit',
      idempotencyKey: key,
      postings: [
        { account: { system: 'demo_issuance' }, amountCents: -input.amountCents },
        { account: { owner: input.userId, type: 'demo' }, amountCents: input.amountCents },
      ],
      occurredAt: new Date(now),
    });
  });
}

/**
 * A withdrawal request: the cash moves to `withdrawal_hold` at once (more than `real` holds is
 * `InsufficientFunds`, and nothing is written), and an active bonus is forfeited in the same
 * transaction, as the bonus policy says. Only a user whose identity was verified may ask
 * (`IdentityNotVerified` otherwise, nothing written); a retry of a request made earlier answers as
 * the first did.
 */
export async function requestWithdrawal(
  deps: WalletDeps,
  input: { userId: string; amountCents: number; accountType: 'real' | 'demo'; idempotencyKey?: string },
): Promise<CommandOutcome> {
  if (input.accountType === 'demo') throw new DemoWithdrawal();
  const now = deps.clock.nowMs();
  return deps.db.transaction().execute(async (trx) => {
    await lockUserWallet(trx, input.userId);
    const earlier = await replayed(trx, 'withdrawal_requests', input);
    if (earlier) return earlier;
    if (!(await isClearedForWithdrawal(trx, input.userId))) throw new IdentityNotVerified();
    const [bonus] = await lockActiveBonuses(trx, [input.userId]);
    const balances = await lockAccounts(trx, [
      userAccountCode(input.userId, 'real'),
      userAccountCode(input.userId, 'withdrawal_hold'),
      ...(bonus ? bonusEndAccounts(input.userId, bonus.id) : []),
    ]);
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
        { account: { owner: input.userId, type: 'real' }, amountCents: -input.amountCents },
        { account: { owner: input.userId, type: 'withdrawal_hold' }, amountCents: input.amountCents },
      ],
      ref: { withdrawalId: id },
      occurredAt: new Date(now),
    });
    if (bonus) {
      await endLockedBonus(trx, {
        userId: input.userId,
        bonusId: bonus.id,
        status: 'forfeited',
        now,
        balances,
      });
    }
    return { status: 'pending' as const, request };
  });
}

export async function cancelBonus(deps: WalletDeps, userId: string): Promise<void> {
  const now = deps.clock.nowMs();
  await deps.db.transaction().execute(async (trx) => {
    await lockUserWallet(trx, userId);
    const [bonus] = await lockActiveBonuses(trx, [userId]);
    if (!bonus) throw new NoActiveBonus();
    const balances = await lockAccounts(trx, bonusEndAccounts(userId, bonus.id));
    await endLockedBonus(trx, { userId, bonusId: bonus.id, status: 'forfeited', now, balances });
  });
}

/** What the wallet screen shows: the balances and the bonus (the active one, else the latest). */
export async function loadWallet(db: Kysely<Database>, userId: string) {
  const [balances, bonus] = await Promise.all([getUserBalances(db, userId), latestBonus(db, userId)]);
  return { balances, bonus };
}
