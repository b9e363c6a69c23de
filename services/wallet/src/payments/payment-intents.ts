import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import { DomainError, type Clock, type Database, type Logger } from '@updown/runtime';
import { creditRealDeposit } from '../commands/deposit-credit';
import {
  decidePendingRequest,
  findRequest,
  insertPaymentRequest,
  type PaymentRequestRow,
} from '../commands/requests.repository';
import { lockUserWallet } from '../commands/user-wallet';
import { claimRows } from '../locks/lock-protocol';
import type { PaymentProvider, PaymentResult } from './payment-provider';
import {
  findIntent,
  settlePendingIntent,
  stalePendingIntents,
  type PaymentIntentRow,
} from './payment-intents.repository';

/**
 * Payments outside the money lock. A command that charges the provider runs in three steps:
 *
 *   1. record a `pending` payment intent and commit (under the user's wallet lock, with the
 *      request checks), so the charge is known before the provider hears of it;
 *   2. call the provider with no transaction open and no pooled connection held, however slow it is;
 *   3. record the result in a second transaction, idempotent on the intent id: the intent leaves
 *      `pending` exactly once, and only the recording that moves it posts the money.
 *
 * A crash between 1 and 3 leaves the intent `pending`; `recoverPaymentIntents`, run at start-up,
 * asks the provider for the reference's outcome and records it the same way.
 */

export interface PaymentDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly payments: PaymentProvider;
}

/** A decision that moved a request out of `pending`, for the caller's own record of it (the admin audit). */
export interface DecidedRequest {
  readonly kind: 'deposit' | 'withdrawal';
  readonly decision: 'approve' | 'reject';
  readonly adminId: string;
  readonly at: number;
  readonly request: PaymentRequestRow;
}

export interface DecisionHooks {
  /** Runs in the decision's transaction, after its ledger entry: what it writes commits with it. */
  readonly onDecided?: (trx: Transaction<Database>, decided: DecidedRequest) => Promise<void>;
}

/** How long a command waits for another's charge of the same request or key before giving up. */
export const PAYMENT_INTENT_WAIT_MS = 30_000;
const PAYMENT_INTENT_POLL_MS = 20;

class PaymentInProgress extends DomainError {
  constructor() {
    super('CONFLICT', 'A payment for this request is still in progress; try again shortly');
  }
}

/**
 * Waits, holding nothing, until another command's intent has its result (the retry of a deposit
 * under the same key, a second admin approving the same request). Then the caller starts over and
 * finds the request decided, as if it had waited on the first command's locks.
 */
export async function waitForIntent(db: Kysely<Database>, intentId: string): Promise<void> {
  const deadline = performance.now() + PAYMENT_INTENT_WAIT_MS;
  for (;;) {
    const intent = await findIntent(db, intentId);
    if (!intent || intent.status !== 'pending') return;
    if (performance.now() > deadline) throw new PaymentInProgress();
    await sleep(PAYMENT_INTENT_POLL_MS);
  }
}

/** The provider's answer as recorded: no reference when the provider never saw the charge. */
export type RecordableResult = PaymentResult | { readonly status: 'failed'; readonly providerRef: null };

export interface RecordedPayment {
  /** The intent as recorded (by this call, or by the one that recorded it first). */
  readonly intent: PaymentIntentRow;
  /** The deposit request the charge paid, once the charge succeeded. */
  readonly request: PaymentRequestRow | undefined;
  /** Whether this call recorded the result (false: it had been recorded before; nothing moved). */
  readonly recorded: boolean;
}

/**
 * Step 3: records the provider's answer. A success creates (immediate deposit) or approves
 * (approval) the deposit request and credits the deposit and any first-deposit bonus; a failure
 * moves nothing. A second recording of the same intent moves nothing and returns the first.
 */
export async function recordPaymentResult(
  deps: PaymentDeps,
  intent: PaymentIntentRow,
  result: RecordableResult,
  hooks: DecisionHooks = {},
): Promise<RecordedPayment> {
  const recorded = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.nowMs();
    await lockUserWallet(trx, intent.user_id);
    const claimed = await claimRows(trx, async () => {
      const settled = await settlePendingIntent(trx, intent.id, {
        status: result.status,
        providerRef: result.providerRef,
        at: new Date(now),
      });
      if (!settled || settled.status !== 'succeeded') return { settled, request: undefined };
      if (settled.kind === 'deposit') {
        const request = await insertPaymentRequest(trx, 'deposit_requests', {
          id: settled.request_id,
          userId: settled.user_id,
          amountCents: settled.amount_cents,
          status: 'approved',
          providerRef: result.providerRef,
          idempotencyKey: settled.idempotency_key ?? undefined,
          createdAt: settled.created_at,
        });
        return { settled, request };
      }
      // An approval: the request was pending when the intent was recorded, and no decision of
      // it could start while the intent was pending.
      const request = await decidePendingRequest(trx, 'deposit_requests', settled.request_id, {
        status: 'approved',
        adminId: settled.decided_by!,
        at: new Date(now),
        providerRef: result.providerRef ?? undefined,
      });
      if (!request) throw new Error(`deposit request ${settled.request_id} left pending under an intent`);
      return { settled, request };
    });
    const { settled, request } = claimed;
    if (!settled) return undefined;
    if (request) {
      await creditRealDeposit(trx, {
        userId: request.user_id,
        amountCents: request.amount_cents,
        depositId: request.id,
        now,
      });
      if (settled.kind === 'deposit_approval') {
        await hooks.onDecided?.(trx, {
          kind: 'deposit',
          decision: 'approve',
          adminId: settled.decided_by!,
          at: now,
          request,
        });
      }
    }
    return { intent: settled, request, recorded: true };
  });
  if (recorded) return recorded;
  const first = await findIntent(deps.db, intent.id);
  if (!first) throw new Error(`payment intent ${intent.id} vanished`);
  const request =
    first.status === 'succeeded'
      ? await findRequest(deps.db, 'deposit_requests', first.request_id)
      : undefined;
  return { intent: first, request, recorded: false };
}

/**
 * Steps 2 and 3 for an intent step 1 committed. The request id is the provider's reference. A
 * provider that throws leaves the intent pending (the outcome is unknown) for recovery to ask about.
 */
export async function chargeIntent(
  deps: PaymentDeps,
  intent: PaymentIntentRow,
  hooks: DecisionHooks = {},
): Promise<RecordedPayment> {
  const result = await deps.payments.charge({
    userId: intent.user_id,
    amountCents: intent.amount_cents,
    reference: intent.request_id,
  });
  return recordPaymentResult(deps, intent, result, hooks);
}

/** Pending intents older than this at start-up are asked about: younger ones may still be in flight. */
export const PAYMENT_INTENT_RECOVERY_AGE_MS_DEFAULT = 60_000;
/** Intents recovered per call: bounds one start-up's work. */
export const PAYMENT_INTENT_RECOVERY_BATCH_MAX = 500;

export interface RecoveryDeps extends PaymentDeps {
  readonly logger?: Logger;
  /** Only intents recorded at least this long ago (default one minute). */
  readonly olderThanMs?: number;
}

export interface RecoveryRun {
  readonly succeeded: number;
  readonly failed: number;
  /** Intents another recording had decided first, or that failed to record (logged). */
  readonly skipped: number;
}

/**
 * Start-up recovery of a crash between an intent's commit and its result: asks the provider about
 * each stale pending intent (by reference, which is idempotent) and records the answer. A charge
 * the provider never saw took nothing and is recorded as failed. `hooks.onDecided` receives the
 * approvals it completes, as the admin's decision would have.
 */
export async function recoverPaymentIntents(
  deps: RecoveryDeps,
  hooks: DecisionHooks = {},
): Promise<RecoveryRun> {
  const before = new Date(deps.clock.nowMs() - (deps.olderThanMs ?? PAYMENT_INTENT_RECOVERY_AGE_MS_DEFAULT));
  const stale = await stalePendingIntents(deps.db, before, PAYMENT_INTENT_RECOVERY_BATCH_MAX);
  let succeeded = 0;
  let failed = 0;
  let skipped = 0;
  for (const intent of stale) {
    try {
      const answer = await deps.payments.status(intent.request_id);
      const result: RecordableResult =
        answer.status === 'unknown' ? { status: 'failed', providerRef: null } : answer;
      const recorded = await recordPaymentResult(deps, intent, result, hooks);
      if (!recorded.recorded) skipped += 1;
      else if (recorded.intent.status === 'succeeded') succeeded += 1;
      else failed += 1;
    } catch (error) {
      skipped += 1;
      deps.logger?.error({ err: error, intentId: intent.id }, 'payment intent recovery failed');
    }
  }
  const run = { succeeded, failed, skipped };
  if (stale.length > 0) deps.logger?.info(run, 'payment intents recovered');
  return run;
}
