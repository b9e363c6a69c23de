import { sql } from 'kysely';
import { createLogger, type Clock } from '@updown/runtime';
import {
  startInProcessPlatform,
  TEST_ADMIN,
  type InProcessPlatform,
  type RunningPlatform,
} from '@updown/platform/testing';

export type SecurityPlatform = InProcessPlatform;

/** The whole platform in this process on a fresh database; `env` overrides or adds configuration. */
export function startSecurityPlatform(
  clock: Clock,
  env: Record<string, string> = {},
): Promise<SecurityPlatform> {
  return startInProcessPlatform({
    clock,
    name: 'security',
    admin: TEST_ADMIN,
    env,
    logger: createLogger({ level: 'silent', name: 'security' }),
  });
}

/** What a request must not change when it is refused: the whole ledger, in one line. */
export interface LedgerSnapshot {
  readonly entries: number;
  readonly postings: number;
  readonly balanceSum: number;
  /** A digest of every account's id and balance. */
  readonly balances: string;
}

export async function ledgerSnapshot(platform: RunningPlatform): Promise<LedgerSnapshot> {
  const { rows } = await sql<LedgerSnapshot>`
    select (select count(*)::int from ledger_entries) as entries,
           (select count(*)::int from ledger_postings) as postings,
           (select coalesce(sum(balance), 0)::bigint from ledger_accounts) as "balanceSum",
           (select coalesce(md5(string_agg(id || ':' || balance, ',' order by id)), '') from ledger_accounts) as balances
  `.execute(platform.database.db);
  return rows[0]!;
}
