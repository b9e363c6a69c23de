import { sql, type Kysely } from 'kysely';
import type { Database } from '@updown/runtime';

/**
 * Proves the ledger's invariants over the whole database:
 * 1. every entry has at least two postings and they sum to zero;
 * 2. every account's balance equals the sum of its postings;
 * 3. every posting's `balance_after` equals the running sum of its account's postings;
 * 4. no account that may not go negative is negative;
 * 5. every posting names an existing entry and account.
 * The database enforces these on write; this check catches what bypassed it (a hand edit, a bug in
 * a migration, a restored backup).
 */

export interface Violation {
  readonly check:
    | 'entry_unbalanced'
    | 'entry_too_few_postings'
    | 'balance_mismatch'
    | 'balance_after_mismatch'
    | 'negative_balance'
    | 'posting_orphaned';
  readonly detail: string;
}

export interface LedgerReport {
  readonly ok: boolean;
  readonly entries: number;
  readonly postings: number;
  readonly accounts: number;
  readonly violations: readonly Violation[];
  /** Violations found beyond the ones listed. */
  readonly truncated: number;
}

const LISTED_PER_CHECK_MAX = 50;

export async function verifyLedger(db: Kysely<Database>): Promise<LedgerReport> {
  // One snapshot for all checks, so writers running meanwhile cannot make a consistent ledger look broken.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const counts = await sql<{ entries: number; postings: number; accounts: number }>`
        select (select count(*) from ledger_entries) as entries,
               (select count(*) from ledger_postings) as postings,
               (select count(*) from ledger_accounts) as accounts`.execute(trx);
      const checks = await Promise.all([
        run(
          trx,
          'entry_unbalanced',
          sql`
          select format('entry %s postings sum to %s', entry_id, sum(amount)) as detail, count(*) over () as total
          from ledger_postings group by entry_id having sum(amount) <> 0 order by entry_id`,
        ),
        run(
          trx,
          'entry_too_few_postings',
          sql`
          select format('entry %s (%s) has %s posting(s)', e.id, e.kind, count(p.id)) as detail, count(*) over () as total
          from ledger_entries e left join ledger_postings p on p.entry_id = e.id
          group by e.id having count(p.id) < 2 order by e.id`,
        ),
        run(
          trx,
          'balance_mismatch',
          sql`
          select format('account %s balance %s but postings sum to %s', a.code, a.balance, coalesce(sum(p.amount), 0)) as detail,
                 count(*) over () as total
          from ledger_accounts a left join ledger_postings p on p.account_id = a.id
          group by a.id having a.balance <> coalesce(sum(p.amount), 0) order by a.id`,
        ),
        run(
          trx,
          'balance_after_mismatch',
          sql`
          select format('posting %s on account %s has balance_after %s, running sum %s', id, account_id, balance_after, running) as detail,
                 count(*) over () as total
          from (
            select id, account_id, balance_after,
                   sum(amount) over (partition by account_id order by id) as running
            from ledger_postings
          ) t where balance_after <> running order by id`,
        ),
        run(
          trx,
          'negative_balance',
          sql`
          select format('account %s is negative: %s', code, balance) as detail, count(*) over () as total
          from ledger_accounts where not may_go_negative and balance < 0 order by id`,
        ),
        run(
          trx,
          'posting_orphaned',
          sql`
          select format('posting %s names %s %s, which does not exist', p.id,
                        case when e.id is null then 'entry' else 'account' end,
                        case when e.id is null then p.entry_id else p.account_id end) as detail,
                 count(*) over () as total
          from ledger_postings p
          left join ledger_entries e on e.id = p.entry_id
          left join ledger_accounts a on a.id = p.account_id
          where e.id is null or a.id is null order by p.id`,
        ),
      ]);
      const violations = checks.flatMap((c) => c.listed);
      const truncated = checks.reduce((sum, c) => sum + c.total - c.listed.length, 0);
      const row = counts.rows[0] ?? { entries: 0, postings: 0, accounts: 0 };
      return { ok: violations.length === 0, ...row, violations, truncated };
    });
}

async function run(
  trx: Kysely<Database>,
  check: Violation['check'],
  query: ReturnType<typeof sql<unknown>>,
): Promise<{ listed: Violation[]; total: number }> {
  const { rows } = await sql<{
    detail: string;
    total: number;
  }>`select * from (${query}) v limit ${LISTED_PER_CHECK_MAX}`.execute(trx);
  return { listed: rows.map((r) => ({ check, detail: r.detail })), total: rows[0]?.total ?? 0 };
}

export function formatReport(report: LedgerReport): string {
  const head = `ledger: ${report.entries} entries, ${report.postings} postings, ${report.accounts} accounts`;
  if (report.ok)
    return `${head}: OK (balanced entries, balances match postings, no negative user balance, no orphaned posting)`;
  const lines = report.violations.map((v) => `  ${v.check}: ${v.detail}`);
  const more = report.truncated > 0 ? [`  ... and ${report.truncated} more`] : [];
  return [`${head}: ${report.violations.length + report.truncated} VIOLATION(S)`, ...lines, ...more].join(
    '\n',
  );
}
