import { describe, expect, it } from 'vitest';
import { statementKind } from './storm-statements';

describe('statementKind', () => {
  it('names each step of a settlement batch by its SQL', () => {
    expect(statementKind('with due (pair, due_before) as (...), picked as materialized (select ...)')).toBe(
      'lock_due_trades',
    );
    expect(
      statementKind('update trades t\n    set status = u.status, turnover_cents = 0 from unnest(...)'),
    ).toBe('mark_settled');
    expect(statementKind('insert into ledger_entries (kind, idempotency_key) select ...')).toBe(
      'ledger_entries',
    );
    expect(statementKind('with input as (...) posted as (insert into ledger_postings (entry_id) ...)')).toBe(
      'ledger_postings',
    );
    expect(statementKind('update trades t set turnover_cents = u.cents from unnest(...)')).toBe(
      'bonus_turnover',
    );
    expect(statementKind('insert into outbox (topic, key, event) select ...')).toBe('outbox');
    expect(statementKind('begin')).toBe('begin_commit');
    expect(statementKind('COMMIT')).toBe('begin_commit');
    expect(statementKind('select p.pair, (select max(m.ts) from market_ticks m) from unnest($1)')).toBe(
      'other',
    );
  });
});
