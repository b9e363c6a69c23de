import { repeatEvery, type Logger } from '@updown/runtime';
import { auditDecision } from './decision-audit';
import { mockPaymentProvider } from './payment-provider';
import { recoverPaymentIntents, type RecoveryDeps, type RecoveryRun } from './payment-intents';

/**
 * Recovery of payments interrupted between their intent and their result (a crash while the
 * provider was being asked). Deposit approvals it completes are audited as the admin's decision
 * would have been. One pass; `startPaymentRecovery` runs it at start and then periodically.
 */
export function recoverPayments(
  deps: Omit<RecoveryDeps, 'payments'> & { readonly payments?: RecoveryDeps['payments'] },
): Promise<RecoveryRun> {
  return recoverPaymentIntents(
    { ...deps, payments: deps.payments ?? mockPaymentProvider },
    { onDecided: auditDecision },
  );
}

/** How often pending intents are looked at again after start-up. */
export const PAYMENT_RECOVERY_INTERVAL_MS = 30_000;

export interface PaymentRecoveryJob {
  stop(): Promise<void>;
}

/**
 * Runs the recovery once before the API serves, then every `PAYMENT_RECOVERY_INTERVAL_MS`. A crash
 * restarts the process within seconds, when the intents it interrupted are still younger than the
 * recovery age (one minute, so a charge still in flight elsewhere is not asked about): the next
 * passes pick them up, so an interrupted deposit is settled about a minute later, not at the next
 * restart. A provider adapter's charge must answer, or give up, within that minute.
 */
export async function startPaymentRecovery(
  deps: Parameters<typeof recoverPayments>[0] & { readonly logger: Logger },
): Promise<PaymentRecoveryJob> {
  await recoverPayments(deps);
  const job = repeatEvery({
    clock: deps.clock,
    intervalMs: PAYMENT_RECOVERY_INTERVAL_MS,
    name: 'payment recovery',
    logger: deps.logger,
    task: () => recoverPayments(deps),
  });
  return { stop: job.stop };
}
