import { describe, expect, it } from 'vitest';
import { statementKind } from './storm-statements';

describe('statementKind', () => {
  it('names each step of a settlement pass by its SQL', () => {
    expect(
      statementKind(
        'select p.pair, (select max(m.at_ms) from market_ticks m where m.pair = p.pair) as at_ms',
      ),
    ).toBe('latest_ticks');
    expect(statementKind('with due (pair, due_before) as (...), picked as materialized (select ...)')).toBe(
      'lock_due_trades',
    );
    expect(
      statementKind(
        'select t.id from (...) k\n    join trades t on t.user_id = k.user_id and t.pair = k.pair',
      ),
    ).toBe('hedge_lookup');
    expect(
      statementKind(
        'update trades t\n    set status = u.status, turnover_cents = u.turnover_cents from unnest(...)',
      ),
    ).toBe('mark_settled');
    expect(
      statementKind(
        'select id, user_id, amount_cents from bonuses\n    where user_id = any($1) order by id for no key update',
      ),
    ).toBe('lock_bonuses');
    expect(statementKind('update bonuses b set turnover_cents = b.turnover_cents + u.cents')).toBe(
      'bonus_turnover',
    );
    expect(
      statementKind(
        'select code, balance from ledger_accounts where code = any($1::text[])\n order by id for update',
      ),
    ).toBe('lock_accounts');
    expect(
      statementKind(
        'with input as (...), entries as (insert into ledger_entries (id, kind) ...), posted as (insert into ledger_postings ...)',
      ),
    ).toBe('ledger');
    expect(statementKind('begin')).toBe('begin_commit');
    expect(statementKind('COMMIT')).toBe('begin_commit');
    expect(statementKind('select 1')).toBe('other');
  });
});
