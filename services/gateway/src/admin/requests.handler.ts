import { DomainError } from '@updown/runtime';
import { transfer } from '@updown/wallet';
import { charge, creditRealDeposit, type WalletDeps } from '../wallet/wallet.handler';
import {
  decidePendingRequest,
  findRequest,
  lockUser,
  type PaymentRequestRow,
  type RequestTable,
} from '../wallet/wallet.repository';
import { writeAudit } from './audit.repository';

/**
 * Admin decisions on deposit and withdrawal requests. The guarded update claims the row (only a
 * pending one, exactly once) before any money moves, and the ledger entry and the audit record
 * commit in the same transaction, so a second admin deciding at the same moment gets a 409 and
 * nothing moves twice.
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

export async function decideRequest(
  deps: WalletDeps,
  table: RequestTable,
  input: { id: string; decision: Decision; adminId: string },
): Promise<PaymentRequestRow> {
  const now = deps.clock.now();
  const status = input.decision === 'approve' ? 'approved' : 'rejected';
  return deps.db.transaction().execute(async (trx) => {
    const decided = await decidePendingRequest(trx, table, input.id, {
      status,
      adminId: input.adminId,
      at: new Date(now),
    });
    if (!decided) {
      const existing = await findRequest(trx, table, input.id);
      if (!existing) throw new RequestNotFound(LABEL[table]);
      throw new RequestNotPending(LABEL[table], existing.status);
    }
    await lockUser(trx, decided.user_id);
    if (table === 'deposit_requests' && status === 'approved') {
      const providerRef = await charge(deps.payments, decided.user_id, decided.amount_cents, decided.id);
      await trx
        .updateTable('deposit_requests')
        .set({ provider_ref: providerRef })
        .where('id', '=', decided.id)
        .execute();
      await creditRealDeposit(trx, {
        userId: decided.user_id,
        amountCents: decided.amount_cents,
        depositId: decided.id,
        now,
      });
    }
    if (table === 'withdrawal_requests') await settleWithdrawalHold(trx, decided, status, now);
    await writeAudit(trx, {
      actorId: input.adminId,
      action: `${table === 'deposit_requests' ? 'deposit' : 'withdrawal'}.${input.decision}`,
      target: decided.id,
      before: { status: 'pending' },
      after: { status, user_id: decided.user_id, amount_cents: decided.amount_cents },
      at: now,
    });
    return decided;
  });
}

/** Approval pays the held cash out to the clearing account; rejection returns it to the user's cash. */
async function settleWithdrawalHold(
  trx: Parameters<typeof transfer>[0],
  request: PaymentRequestRow,
  status: 'approved' | 'rejected',
  now: number,
): Promise<void> {
  const approved = status === 'approved';
  await transfer(trx, {
    kind: approved ? 'withdrawal_payout' : 'withdrawal_reversal',
    idempotencyKey: `withdrawal:${request.id}:${approved ? 'payout' : 'reversal'}`,
    postings: [
      { account: { owner: request.user_id, type: 'withdrawal_hold' }, amount: -request.amount_cents },
      approved
        ? { account: { system: 'payments_clearing' }, amount: request.amount_cents }
        : { account: { owner: request.user_id, type: 'real' }, amount: request.amount_cents },
    ],
    ref: { withdrawalId: request.id },
    occurredAt: new Date(now),
  });
}
