import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATION_OWNERS } from '@updown/runtime';
import {
  blankComments,
  findMentions,
  loadOwnership,
  ownershipProblems,
  readModelWrites,
  sourceFiles,
} from './table-ownership.js';

/**
 * Every table has one owner, the package whose migrations create it (table-owners.json, which the
 * platform's migrations test derives from running them), and no product source outside the owner
 * names it, except foreign keys pointing down a floor and the read models each package declares.
 * The `updown/table-owner` lint rule reports the same problems file by file; its fixtures are in
 * scripts/lint-fixtures/table-owner.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const ownership = loadOwnership(repoRoot);

describe('table ownership', () => {
  it('gives every table one owner, floor by floor', () => {
    expect(ownership.owners.get('outbox_cursors')).toBe('runtime');
    expect(ownership.owners.get('users')).toBe('accounts');
    expect(ownership.owners.get('trades')).toBe('order');
    expect(ownership.owners.get('bonuses')).toBe('wallet');
    expect(ownership.owners.get('market_ticks')).toBe('price-ingest');
    expect(ownership.floors).toEqual([...MIGRATION_OWNERS]);
  });

  it('finds no product source naming a table outside its owner', () => {
    const problems = sourceFiles(repoRoot).flatMap((file) =>
      ownershipProblems(ownership, file, readFileSync(path.join(repoRoot, file), 'utf8')).map(
        (problem) => `${file}:${problem.line} ${problem.message}`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it('scans the product code of every package with its test helpers, and no test', () => {
    const files = sourceFiles(repoRoot);
    expect(files).toEqual(
      expect.arrayContaining([
        'services/order/src/trades/trades.repository.ts',
        'services/wallet/src/locks/lock-protocol.ts',
        'services/gateway/src/leaderboard/leaderboard.read-model.ts',
        'services/wallet/src/testing/funding.ts',
      ]),
    );
    expect(files.filter((f) => /\.test\.ts$/.test(f))).toEqual([]);
  });

  it('declares each read model with tables that exist', () => {
    expect([...ownership.readModels.keys()].sort()).toEqual([
      'services/gateway/src/leaderboard/leaderboard.read-model.ts',
      'services/settlement/src/receipts/receipt-audit.read-model.ts',
    ]);
    for (const { tables } of ownership.readModels.values())
      for (const table of tables) expect(ownership.owners.has(table), table).toBe(true);
  });
});

describe('the ownership rules', () => {
  const problems = (file: string, source: string) =>
    ownershipProblems(ownership, file, source).map((problem) => problem.line);

  it("let a package name its own tables and refuse another owner's", () => {
    expect(problems('services/wallet/src/x.ts', "db.selectFrom('bonuses')")).toEqual([]);
    expect(problems('services/wallet/src/x.ts', "\ndb.selectFrom('trades')")).toEqual([2]);
    expect(problems('services/gateway/src/x.ts', "db.selectFrom('users')")).toEqual([1]);
  });

  it('allow a foreign key only from a migration, and only down a floor', () => {
    const fk = 'user_id uuid not null references users (id)';
    expect(problems('services/order/src/db/migrations/0099_x.ts', fk)).toEqual([]);
    expect(problems('services/order/src/trades/x.ts', fk)).toEqual([1]);
    expect(
      problems('services/accounts/src/db/migrations/0099_x.ts', 'trade_id uuid references trades (id)'),
    ).toEqual([1]);
  });

  it('hold a read model to its declaration and to reading', () => {
    const leaderboard = 'services/gateway/src/leaderboard/leaderboard.read-model.ts';
    expect(
      problems(leaderboard, "db.selectFrom('trades').innerJoin('users', 'users.id', 'trades.user_id')"),
    ).toEqual([]);
    expect(problems(leaderboard, "db.selectFrom('ledger_accounts')")).toEqual([1]);
    expect(problems(leaderboard, "db.updateTable('users')")).toEqual([1]);
    expect(problems('services/gateway/src/stats/x.read-model.ts', "db.selectFrom('trades')")).toEqual([1, 1]);
  });
});

describe('the table scanner', () => {
  const tables = ['trades', 'users', 'bonuses'];

  it('finds kysely builders, sql.table, quoted names and SQL text, with their lines', () => {
    const source = [
      "db.selectFrom('trades as t').innerJoin('users', 'users.id', 't.user_id')",
      "await sql`update bonuses set status = 'expired'`.execute(db);",
      'sql.table("trades")',
      "type Row = Selectable<Database['bonuses']>;",
      'sql`select count(*) from trades where pair = ${pair}`',
    ].join('\n');
    expect(findMentions(source, tables)).toEqual([
      { table: 'trades', line: 1, kind: 'query' },
      { table: 'users', line: 1, kind: 'query' },
      { table: 'bonuses', line: 2, kind: 'query' },
      { table: 'trades', line: 3, kind: 'query' },
      { table: 'bonuses', line: 4, kind: 'query' },
      { table: 'trades', line: 5, kind: 'query' },
    ]);
  });

  it('ignores other words that contain a table name, comments and labels', () => {
    const source = [
      "const a = 'trades_count'; const b = \"my_users\"; db.selectFrom('bonuses_history');",
      "// selectFrom('trades') and select * from users",
      "/* insertInto('bonuses') */ const url = 'http://x/trades'; tags: ['trades'],",
      "target: 'users', const text = 'updated users';",
    ].join('\n');
    expect(findMentions(source, tables)).toEqual([]);
  });

  it('tells a foreign key from a query', () => {
    expect(findMentions('user_id uuid not null references users (id),', tables)).toEqual([
      { table: 'users', line: 1, kind: 'references' },
    ]);
  });

  it('blanks comments but keeps strings and line numbers', () => {
    const source = "const a = '// not a comment'; // a comment\n/* two\nlines */ `${'x' /* c */}`";
    const blanked = blankComments(source);
    expect(blanked.split('\n')).toHaveLength(3);
    expect(blanked).toContain("'// not a comment'");
    expect(blanked).not.toContain('a comment\n');
    expect(blanked).not.toMatch(/two|lines|\/\* c/);
  });

  it('refuses a read model that writes or locks rows', () => {
    expect(readModelWrites("db.selectFrom('trades').selectAll().execute()")).toEqual([]);
    expect(readModelWrites("const x = 1;\ndb.updateTable('bonuses').set({ status: 'expired' })")).toEqual([
      2,
    ]);
    expect(readModelWrites('sql`select * from trades for update`')).toEqual([1]);
    expect(readModelWrites("sql`insert into trades values (1)`\ndb.deleteFrom('users')")).toEqual([1, 2]);
  });
});
