import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@updown/runtime';
import { clearWithdrawals } from '../clearance/withdrawal-clearance';
import type { Posting } from '../ledger/ledger.domain';
import { transfer } from '../ledger/ledger.repository';

/** Cents to put on each of a user's accounts. */
export interface Funds {
  readonly realCents?: number;
  readonly bonusCents?: number;
  readonly demoCents?: number;
}

const SOURCES = {
  real: { system: 'payments_clearing', kind: 'deposit' },
  bonus: { system: 'bonus_pool', kind: 'bonus_credit' },
  demo: { system: 'demo_issuance', kind: 'deposit' },
} as const;

/**
 * Set-up for tests and measurements that are not about payments: money on a user's accounts, each
 * posted from the system account the real flow posts it from (a deposit from payments clearing,
 * a bonus from the bonus pool, demo money from demo issuance), one wallet transaction each (the lock
 * protocol takes a transaction's accounts once). The user's ledger accounts must be open
 * (registration opens them). Each call is a new movement.
 */
export async function fundUser(db: Kysely<Database>, userId: string, funds: Funds): Promise<void> {
  const movements = (
    [
      ['real', funds.realCents],
      ['bonus', funds.bonusCents],
      ['demo', funds.demoCents],
    ] as const
  ).filter(([, cents]) => cents !== undefined && cents !== 0);
  for (const [, cents] of movements) {
    if (!Number.isSafeInteger(cents) || cents! < 0)
      throw new RangeError(`funds are whole cents ≥ 0, got ${cents}`);
  }
  if (movements.length === 0) return;
  for (const [type, cents] of movements) {
    const source = SOURCES[type];
    const postings: Posting[] = [
      { account: { system: source.system }, amountCents: -cents! },
      { account: { owner: userId, type }, amountCents: cents! },
    ];
    await db
      .transaction()
      .execute((trx) =>
        transfer(trx, { kind: source.kind, idempotencyKey: `fund:${userId}:${randomUUID()}`, postings }),
      );
  }
}

/**
 * Set-up for tests that are not about identity verification: the user's withdrawals are cleared
 * as an approved verification clears them (the identity suites test the real flow).
 */
export async function clearForWithdrawals(
  db: Kysely<Database>,
  userId: string,
  atMs: number = Date.now(),
): Promise<void> {
  await db
    .transaction()
    .execute((trx) => clearWithdrawals(trx, { userId, sourceId: randomUUID(), at: atMs }));
}
