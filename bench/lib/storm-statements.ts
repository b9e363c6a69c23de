/** Which step of a settlement batch a statement is, for the time breakdown in the setup. */
const STATEMENT_KINDS: readonly (readonly [string, RegExp])[] = [
  ['lock_due_trades', /picked as materialized/],
  ['mark_settled', /update trades t\s+set status/],
  ['ledger_entries', /insert into ledger_entries/],
  ['ledger_postings', /insert into ledger_postings/],
  ['bonus_turnover', /turnover|bonuses/],
  ['outbox', /insert into outbox/],
  ['begin_commit', /^\s*(begin|commit|rollback)/i],
];

export function statementKind(text: string): string {
  return STATEMENT_KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}
