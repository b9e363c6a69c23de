import type { Transaction } from 'kysely';
import type { Database } from '@updown/runtime';
import { lockPlatformSettings, updatePlatformSettings, type PlatformSettings } from './settings.repository';

/** The settings an admin edits. */
export type AdminSettings = Pick<PlatformSettings, 'payout_pct' | 'require_deposit_approval'>;

/**
 * An admin's change to the platform settings, in the caller's transaction, so the caller's record
 * of it (the gateway's audit row) commits with it. A field left out keeps its value; the payout has
 * passed `checkPayoutPct`, which the caller applies before it opens the transaction. The settings
 * row stays locked until the caller commits, so pairs added meanwhile wait for the new payout.
 */
export async function changePlatformSettings(
  trx: Transaction<Database>,
  change: { readonly payoutPct?: number | undefined; readonly requireDepositApproval?: boolean | undefined },
  nowMs: number,
): Promise<{ before: AdminSettings; after: AdminSettings }> {
  const before = await lockPlatformSettings(trx);
  const after = {
    payout_pct: change.payoutPct ?? before.payout_pct,
    require_deposit_approval: change.requireDepositApproval ?? before.require_deposit_approval,
  };
  await updatePlatformSettings(
    trx,
    { payoutPct: after.payout_pct, requireDepositApproval: after.require_deposit_approval },
    nowMs,
  );
  return { before, after };
}
