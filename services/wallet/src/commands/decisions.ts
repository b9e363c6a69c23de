import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { DomainError, type Database } from '@updown/runtime';
import { userAccountCode, accountCode } from '../ledger/ledger.domain';
import { transfer } from '../ledger/ledger.repository';
import { claimRows, lockAccounts, lockWallets } from '../locks/lock-protocol';
import {
  chargeIntent,
  waitForIntent,
  type DecisionHooks,
  type PaymentDeps,
} from '../payments/payment-intents';
import {
  findPendingIntentForRequest,
  insertIntent,
  type PaymentIntentRow,
} from '../payments/payment-intents.repository';
import {
  decidePendingRequest,
  findRequest,
  lockRequest,
  type PaymentRequestRow,
  requestTable,
  type PaymentRequestKind,
  type RequestTable,
} from './requests.repository';
import { PaymentFailed } from './wallet.domain';

/**
 * Admin decisions on deposit and withdrawal requests. Each reads the request to learn its user,
 * locks that user's wallet, then claims the request (only a pending one, exactly once) before any
 * money moves; the ledger entry and the caller's record of the decision (`hooks.onDecided`, the
 * admin audit) commit in the same transaction, so a second admin deciding at the same moment gets
 * a 409 and nothing moves twice. Approving a deposit charges the provider outside the locks: the
 * intent is the claim while the charge runs, and every other decision of the request waits for it.
 */

export type Decision = 'approve' | 'reject';

class RequestNotFound extends DomainError {
  constructor(kind: string) {
    super('NOT_FOUND', `${kind} request not found`);
  }
}

class RequestNotPending extends DomainError {
  constructor(kind: string, status: string) {
    super('REQUEST_NOT_PENDING', `${kind} request is already ${status}`);
  }
}

const LABEL: Record<RequestTable, string> = {
  deposit_requests: 'Deposit',
  withdrawal_requests: 'Withdrawal',
};

type DecisionStep =
  | { readonly decided: PaymentRequestRow }
  | { readonly waitFor: string }
  | { readonly charge: PaymentIntentRow };

export async function decideRequest(
  deps: PaymentDeps,
  kind: PaymentRequestKind,
  input: { id: string; decision: Decision; adminId: string },
  hooks: DecisionHooks = {},
): Promise<PaymentRequestRow> {
  const table = requestTable(kind);
  for (;;) {
    const step = await deps.db.transaction().execute(async (trx): Promise<DecisionStep> => {
      const now = deps.clock.nowMs();
      const found = await findRequest(trx, table, input.id);
      if (!found) throw new RequestNotFound(LABEL[table]);
      await lockWallets(trx, [found.user_id]);
      const claimed = await claimRows(trx, () => claim(trx, table, input, now));
      if (!('decided' in claimed)) return claimed;
      const { decided } = claimed;
      if (table === 'withdrawal_requests') await settleWithdrawalHold(trx, decided, now);
      await hooks.onDecided?.(trx, {
        kind,
        decision: input.decision,
        adminId: input.adminId,
        at: now,
        request: decided,
      });
      return claimed;
    });
    if ('decided' in step) return step.decided;
    if ('waitFor' in step) {
      // Another approval is charging this deposit: decide after it, as if waiting on its lock.
      await waitForIntent(deps.db, step.waitFor);
      continue;
    }
    const { intent, request } = await chargeIntent(deps, step.charge, hooks);
    if (intent.status !== 'succeeded' || !request) throw new PaymentFailed();
    return request;
  }
}

/** Level 2: the request's claim. A deposit approval's claim is its payment intent. */
async function claim(
  trx: Transaction<Database>,
  table: RequestTable,
  input: { id: string; decision: Decision; adminId: string },
  now: number,
): Promise<DecisionStep> {
  if (table === 'deposit_requests') {
    const inFlight = await findPendingIntentForRequest(trx, input.id);
    if (inFlight) return { waitFor: inFlight.id };
    if (input.decision === 'approve') {
      const request = await lockRequest(trx, table, input.id);
      if (!request) throw new RequestNotFound(LABEL[table]);
      if (request.status !== 'pending') throw new RequestNotPending(LABEL[table], request.status);
      const intent = await insertIntent(trx, {
        id: randomUUID(),
        requestId: request.id,
        userId: request.user_id,
        amountCents: request.amount_cents,
        kind: 'deposit_approval',
        decidedBy: input.adminId,
        createdAt: new Date(now),
      });
      return { charge: intent };
    }
  }
  const decided = await decidePendingRequest(trx, table, input.id, {
    status: input.decision === 'approve' ? 'approved' : 'rejected',
    adminId: input.adminId,
    at: new Date(now),
  });
  if (!decided) {
    const existing = await findRequest(trx, table, input.id);
    if (!existing) throw new RequestNotFound(LABEL[table]);
    throw new RequestNotPending(LABEL[table], existing.status);
  }
  return { decided };
}

/** Approval pays the held cash out to the clearing account; rejection returns it to the user's cash. */
async function settleWithdrawalHold(
  trx: Transaction<Database>,
  request: PaymentRequestRow,
  now: number,
): Promise<void> {
  const approved = request.status === 'approved';
  const key = `withdrawal:${request.id}:${approved ? 'payout' : 'reversal'}`;
  await lockAccounts(trx, [
    userAccountCode(request.user_id, 'withdrawal_hold'),
    approved ? accountCode({ system: 'payments_clearing' }, key) : userAccountCode(request.user_id, 'real'),
  ]);
  await transfer(trx, {
    kind: approved ? 'withdrawal_payout' : 'withdrawal_reversal',
    idempotencyKey: key,
    postings: [
      { account: { owner: request.user_id, type: 'withdrawal_hold' }, amountCents: -request.amount_cents },
      approved
        ? { account: { system: 'payments_clearing' }, amountCents: request.amount_cents }
        : { account: { owner: request.user_id, type: 'real' }, amountCents: request.amount_cents },
    ],
    ref: { withdrawalId: request.id },
    occurredAt: new Date(now),
  });
}
