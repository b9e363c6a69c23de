import type { CompiledQuery, Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { offlineDb, type Database } from '@updown/runtime';
import { lockDueTrades, markSettled } from './settlement-path.repository';

/** A database that records the statements it is sent and answers none of them with rows. */
function recordingDb(): { db: Kysely<Database>; sent: CompiledQuery[] } {
  const sent: CompiledQuery[] = [];
  return { db: offlineDb({ onQuery: (query) => sent.push(query) }), sent };
}

// The expiry storm runs on these two statements; their text is pinned so that a change to them
// (or to price-ingest's exit-tick look-up inside the first) is a visible, deliberate one.
describe('the settlement path statements', () => {
  it('locks due trades of an owner share with their exit ticks in one statement, five parameters whatever the batch', async () => {
    const { db, sent } = recordingDb();
    await db.transaction().execute(async (trx) => {
      await lockDueTrades(
        trx,
        [
          { pair: 'BTCUSDT', dueBefore: 1_000 },
          { pair: 'ETHUSDT', dueBefore: 2_000 },
        ],
        5_000,
        { index: 1, count: 4 },
      );
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.parameters).toEqual([['BTCUSDT', 'ETHUSDT'], [1_000, 2_000], 4, 1, 5_000]);
    expect(sent[0]!.sql).toMatchInlineSnapshot(`
      "
          with due (pair, due_before) as (
            select * from unnest($1::text[], $2::bigint[])
          ),
          picked as materialized (
            select t.id, t.user_id, t.pair, t.direction, t.account_type, t.amount_cents, t.stake_cash_cents,
                   t.stake_bonus_cents, t.payout_pct, t.duration_sec, t.entry_price, t.expiry_at_ms, t.accepted_at_ms
            from trades t join due d on d.pair = t.pair
            where t.status = 'pending' and t.expiry_at_ms < d.due_before
              and get_byte(uuid_send(t.user_id), 15) % $3::int = $4::int
            order by t.pair, t.expiry_at_ms, t.id
            limit $5
            for update of t
          ),
          refs as materialized (
            
            select symbol as pair, reference_provider, reference_spread_bps
            from market_pairs
            where symbol in (select distinct pair from picked) and reference_provider is not null
          ),
          exits as materialized (
            select g.pair, g.expiry_at_ms, x.id, x.at_ms, x.price, xr.price as ref_price, xr.at_ms as ref_at_ms
            from (select distinct pair, expiry_at_ms from picked) g
            left join lateral (
              select m.id, m.at_ms, m.price from market_ticks m
              where m.pair = g.pair and m.at_ms <= g.expiry_at_ms
              order by m.at_ms desc, m.id desc
              limit 1
            ) x on true
            left join refs gr on gr.pair = g.pair
            left join lateral (
              select rt.at_ms, rt.price from market_reference_ticks rt
              where gr.pair is not null and rt.pair = gr.pair and rt.provider = gr.reference_provider
                and rt.at_ms <= g.expiry_at_ms and rt.at_ms >= g.expiry_at_ms - 10000::bigint
              order by rt.at_ms desc
              limit 1
            ) xr on true
          ),
          entry_refs as materialized (
            select p.id, x.price, x.at_ms
            from picked p join refs r on r.pair = p.pair
            cross join lateral (
              select rt.at_ms, rt.price from market_reference_ticks rt
              where r.pair is not null and rt.pair = r.pair and rt.provider = r.reference_provider
                and rt.at_ms <= p.accepted_at_ms and rt.at_ms >= p.accepted_at_ms - 10000::bigint
              order by rt.at_ms desc
              limit 1
            ) x
          )
          select p.*, e.id as exit_tick_id, e.at_ms as exit_at_ms, e.price as exit_price,
                 r.reference_provider, r.reference_spread_bps,
                 er.price as entry_ref_price, er.at_ms as entry_ref_at_ms,
                 e.ref_price as expiry_ref_price, e.ref_at_ms as expiry_ref_at_ms
          from picked p join exits e on e.pair = p.pair and e.expiry_at_ms = p.expiry_at_ms
          left join refs r on r.pair = p.pair
          left join entry_refs er on er.id = p.id
          order by p.pair, p.expiry_at_ms, p.id"
    `);
  });

  it('marks trades settled with their turnover in one statement guarded by status = pending', async () => {
    const { db, sent } = recordingDb();
    await db.transaction().execute(async (trx) => {
      await markSettled(
        trx,
        [
          {
            id: 'a',
            status: 'won',
            exitPrice: 2,
            exitAtMs: 3,
            exitTickId: 4,
            pnlCents: 80,
            turnoverCents: 100,
          },
          { id: 'b', status: 'lost', exitPrice: 2, exitAtMs: 3, exitTickId: 4, pnlCents: -100 },
        ],
        9,
      );
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.parameters).toEqual([
      9,
      ['a', 'b'],
      ['won', 'lost'],
      [2, 2],
      [3, 3],
      [4, 4],
      [80, -100],
      [100, 0],
      [null, null],
      [null, null],
    ]);
    expect(sent[0]!.sql).toMatchInlineSnapshot(`
      "
          update trades t
          set status = u.status, exit_price = u.exit_price, exit_at_ms = u.exit_at_ms, exit_tick_id = u.exit_tick_id,
              pnl_cents = u.pnl_cents, settled_at_ms = $1, turnover_cents = u.turnover_cents,
              void_reason = u.void_reason, reference_check = u.reference_check::jsonb,
              settled_xact_id = pg_current_xact_id(), settled_seq = nextval('trades_settled_seq')
          from unnest(
            $2::uuid[],
            $3::text[],
            $4::float8[],
            $5::bigint[],
            $6::bigint[],
            $7::bigint[],
            $8::bigint[],
            $9::text[],
            $10::text[]
          ) as u (id, status, exit_price, exit_at_ms, exit_tick_id, pnl_cents, turnover_cents, void_reason, reference_check)
          where t.id = u.id and t.status = 'pending'
          returning t.id"
    `);
  });
});
