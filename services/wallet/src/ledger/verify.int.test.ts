import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { openUserAccounts, transfer } from './ledger.repository';
import { formatReport, verifyLedger } from './verify';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

let database: TestDatabase;
const user = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase();
  await openUserAccounts(database.db, user);
  for (let i = 0; i < 5; i++) {
    await database.db.transaction().execute((trx) =>
      transfer(trx, {
        kind: 'deposit',
        idempotencyKey: randomUUID(),
        postings: [
          { account: { system: 'payments_clearing' }, amountCents: -1_000 },
          { account: { owner: user, type: 'real' }, amountCents: 1_000 },
        ],
      }),
    );
  }
});
afterAll(async () => {
  await database.drop();
});

async function cli(): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run('npx', ['tsx', 'services/platform/src/verify.cli.ts'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

/** Edits the ledger the way a careless hand with superuser rights could: past the append-only trigger. */
async function corrupt(statement: ReturnType<typeof sql>): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await sql`alter table ledger_postings disable trigger ledger_postings_append_only`.execute(trx);
    await statement.execute(trx);
    await sql`alter table ledger_postings enable trigger ledger_postings_append_only`.execute(trx);
  });
}

describe('ledger verification', () => {
  it('passes on a used ledger, from code and from `npm run ledger:verify`', async () => {
    const report = await verifyLedger(database.db);
    expect(report).toMatchObject({ ok: true, violations: [], entries: 5, postings: 10 });
    expect(formatReport(report)).toMatch(/OK/);
    const result = await cli();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/5 entries, 10 postings, .* OK/);
  });

  it('fails, naming the damage, after a posting is corrupted by hand', async () => {
    await corrupt(
      sql`update ledger_postings set amount = amount + 1 where id = (select max(id) from ledger_postings)`,
    );
    const report = await verifyLedger(database.db);
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => v.check).sort()).toEqual([
      'balance_after_mismatch',
      'balance_mismatch',
      'entry_unbalanced',
    ]);
    const result = await cli();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/VIOLATION/);
    expect(result.stdout).toMatch(/entry_unbalanced: entry \d+ postings sum to 1/);
  });

  it('names a posting whose entry does not exist, written past the statement trigger', async () => {
    await database.db.transaction().execute(async (trx) => {
      await sql`alter table ledger_postings disable trigger ledger_postings_balanced`.execute(trx);
      await sql`
        insert into ledger_postings (entry_id, account_id, amount, balance_after)
        select 999999999, id, 1, 1 from ledger_accounts where code = 'house_real:00'
        union all
        select 999999999, id, -1, -1 from ledger_accounts where code = 'house_real:01'`.execute(trx);
      await sql`alter table ledger_postings enable trigger ledger_postings_balanced`.execute(trx);
    });
    const report = await verifyLedger(database.db);
    expect(report.ok).toBe(false);
    const orphaned = report.violations.filter((v) => v.check === 'posting_orphaned');
    expect(orphaned).toHaveLength(2);
    expect(orphaned[0]!.detail).toMatch(/posting \d+ names entry 999999999, which does not exist/);
  });
});
