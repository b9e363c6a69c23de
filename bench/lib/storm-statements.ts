/** Which step of a settlement pass a statement is, for the time breakdown in the setup. */
const STATEMENT_KINDS: readonly (readonly [string, RegExp])[] = [
  ['latest_ticks', /select max\(m\.at_ms\) from market_ticks/],
  ['lock_due_trades', /picked as materialized/],
  ['hedge_lookup', /join trades t on t\.user_id = k\.user_id/],
  ['mark_settled', /update trades t\s+set status/],
  ['lock_bonuses', /from bonuses\b[\s\S]*for no key update/],
  ['bonus_turnover', /update bonuses/],
  ['lock_accounts', /from ledger_accounts where code = any[\s\S]*for update/],
  ['ledger', /insert into ledger_entries/],
  ['begin_commit', /^\s*(begin|commit|rollback)/i],
];

export function statementKind(text: string): string {
  return STATEMENT_KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}
