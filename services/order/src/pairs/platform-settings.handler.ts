import { setEveryPairPayout } from '@updown/price-ingest';
import { changePlatformSettings, checkPayoutPct, type AdminSettings } from '@updown/wallet';
import { writeAudit } from '@updown/accounts';
import type { AdminDeps } from './pair-admin.handler';

/**
 * An admin's change to the platform settings: the wallet's settings and every pair's payout
 * (price-ingest's), which neither package may change for the other, in one transaction with the
 * `admin_audit` row. The payout is checked before the transaction opens.
 */
export async function changeSettings(
  deps: AdminDeps,
  actorId: string,
  change: {
    readonly payout_pct?: number | undefined;
    readonly require_deposit_approval?: boolean | undefined;
  },
): Promise<AdminSettings> {
  const payoutPct = change.payout_pct === undefined ? undefined : checkPayoutPct(change.payout_pct);
  return deps.db.transaction().execute(async (trx) => {
    const { before, after } = await changePlatformSettings(
      trx,
      { payoutPct, requireDepositApproval: change.require_deposit_approval },
      deps.clock.nowMs(),
    );
    // Placement copies the pair's payout onto the trade: the new payout applies to trades placed from now on.
    await setEveryPairPayout(trx, after.payout_pct);
    await writeAudit(trx, {
      actorId,
      action: 'settings.update',
      target: 'platform_settings',
      before,
      after,
      at: deps.clock.nowMs(),
    });
    return after;
  });
}
