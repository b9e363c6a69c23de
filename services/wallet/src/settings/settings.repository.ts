import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@updown/runtime';

/** The money terms of `platform_settings`: payout %, stake ceiling, deposit approval. */
export interface PlatformSettings {
  readonly payout_pct: number;
  readonly require_deposit_approval: boolean;
  readonly max_stake_cents: number;
}

export async function readSettings(db: Kysely<Database> | Transaction<Database>): Promise<PlatformSettings> {
  return db
    .selectFrom('platform_settings')
    .select(['payout_pct', 'require_deposit_approval', 'max_stake_cents'])
    .executeTakeFirstOrThrow();
}

/** Locks the settings row for an admin's change and returns what an admin edits. */
export async function lockPlatformSettings(
  trx: Transaction<Database>,
): Promise<Pick<PlatformSettings, 'payout_pct' | 'require_deposit_approval'>> {
  return trx
    .selectFrom('platform_settings')
    .select(['payout_pct', 'require_deposit_approval'])
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function updatePlatformSettings(
  trx: Transaction<Database>,
  settings: { payoutPct: number; requireDepositApproval: boolean },
  now: number,
): Promise<void> {
  await trx
    .updateTable('platform_settings')
    .set({
      payout_pct: settings.payoutPct,
      require_deposit_approval: settings.requireDepositApproval,
      updated_at: new Date(now),
    })
    .execute();
}
