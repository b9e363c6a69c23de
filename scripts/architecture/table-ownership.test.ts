import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  blankComments,
  checkOwnership,
  findMentions,
  readModelWrites,
  sourceFiles,
  tableOwners,
} from './table-ownership';

/**
 * Every table has one owner (the package whose package.json lists it under `updown.tables`), and
 * no source outside the owner names it, except read models (`*.read-model.ts`, read-only) and the
 * foreign keys below.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The one cross-owner reference the schema keeps: foreign keys down to accounts' `users`. */
const FOREIGN_KEYS = [
  { file: 'services/order/src/db/migrations/0030_trades.ts', table: 'users' },
  { file: 'services/wallet/src/db/migrations/0030b_bonuses.ts', table: 'users' },
  { file: 'services/wallet/src/db/migrations/0040_wallet.ts', table: 'users' },
];

describe('table ownership', () => {
  const report = checkOwnership(repoRoot, FOREIGN_KEYS);

  it('gives every table one owner', () => {
    const owners = tableOwners(repoRoot);
    expect(owners.get('outbox_cursors')).toBe('runtime');
    expect(owners.get('trades')).toBe('order');
    expect(owners.get('users')).toBe('accounts');
    expect(owners.get('bonuses')).toBe('wallet');
    expect(owners.get('market_ticks')).toBe('price-ingest');
  });

  it('finds no source naming a table outside its owner', () => {
    const violations = report.violations.map(
      (v) => `${v.file}:${v.line} names ${v.table}, owned by ${v.owner}`,
    );
    expect(violations).toEqual([]);
  });

  it('scans the product code of every package, and only it', () => {
    const files = sourceFiles(repoRoot);
    expect(files).toEqual(
      expect.arrayContaining([
        'services/order/src/trades/trades.repository.ts',
        'services/wallet/src/locks/lock-protocol.ts',
        'services/gateway/src/leaderboard/leaderboard.read-model.ts',
      ]),
    );
    expect(files.filter((f) => /\.test\.ts$|\/testing(\/|\.ts$)/.test(f))).toEqual([]);
  });

  it('keeps read models read-only', () => {
    expect(report.readModelWrites).toEqual([]);
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
