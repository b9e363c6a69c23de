import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Selectable,
} from 'kysely';
import {
  allColumns,
  nullableNumberArray,
  nullableTextArray,
  numberArray,
  preparedStatement,
  selectList,
  textArray,
  uncachedTextArray,
  type Database,
  type StatementTarget,
} from '@updown/runtime';
import { pairTermsColumns } from '@updown/price-ingest';
import { stakeTermsColumns } from '@updown/wallet';
import type { TraderRisk } from '../risk/risk.domain';
import type { AcceptedTrade } from './place-trade.domain';

/** Plain data-access functions for placement; each takes the database or a transaction first. */

export type TradeRow = Selectable<Database['trades']>;

/**
 * Every column of `trades`, named: the placement's statements are prepared, and a prepared
 * statement whose result type changed (a migration adding a column under `t.*`) fails to run.
 */
const TRADE_COLUMNS = allColumns<TradeRow>()([
  'id',
  'user_id',
  'pair',
  'direction',
  'account_type',
  'amount_cents',
  'stake_cash_cents',
  'stake_bonus_cents',
  'payout_pct',
  'duration_sec',
  'entry_price',
  'entry_at_ms',
  'entry_tick_id',
  'accepted_at_ms',
  'expiry_at_ms',
  'status',
  'exit_price',
  'exit_at_ms',
  'exit_tick_id',
  'pnl_cents',
  'turnover_cents',
  'settled_at_ms',
  'void_reason',
  'reference_check',
  'settled_xact_id',
  'settled_seq',
  'opened_xact_id',
  'opened_seq',
  'idempotency_key',
  'created_at',
]);

const findByKeys = preparedStatement<
  TradeRow & { found_by_user_id: string },
  [userIds: string, idempotencyKeys: string]
>(`
  select k.user_id as found_by_user_id, ${selectList(TRADE_COLUMNS, 't')}
  from unnest($1::text[], $2::text[]) as k (user_id, idempotency_key)
  join trades t on t.user_id = k.user_id::uuid and t.idempotency_key = k.idempotency_key`);

/**
 * What the insert reads back: the columns the database decides (defaults, the publish position)
 * or may write otherwise than sent (a uuid's spelling, `numeric(6, 2)` rounding). The rest of each
 * row is what was inserted, so no thirty-column row is described and built per statement.
 */
interface InsertedRow {
  id: string;
  user_id: string;
  payout_pct: number;
  status: TradeRow['status'];
  opened_xact_id: string | null;
  opened_seq: number | null;
}

/** Each parameter is one array literal (`@updown/runtime`'s array-literals), in column order. */
const insertRows = preparedStatement<InsertedRow, string[]>(`
  insert into trades (id, user_id, pair, direction, account_type, amount_cents, stake_cash_cents,
                      stake_bonus_cents, payout_pct, duration_sec, entry_price, entry_at_ms,
                      entry_tick_id, accepted_at_ms, expiry_at_ms, idempotency_key, created_at)
  select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::bigint[],
                       $7::bigint[], $8::bigint[], $9::numeric[], $10::integer[],
                       $11::double precision[], $12::bigint[], $13::bigint[], $14::bigint[],
                       $15::bigint[], $16::text[], $17::timestamptz[])
  returning id, user_id, payout_pct, status, opened_xact_id, opened_seq`);

export interface KeyedPlacement {
  readonly userId: string;
  readonly idempotencyKey: string;
}

/**
 * The trades placed before under any of these (user, idempotency key) pairs, in one statement,
 * each with the pair it was found by (the user id as the caller spelled it, so the caller's look-up
 * by its own strings cannot miss). Called under the users' stake locks: a concurrent placement
 * with the same key has committed or not by then.
 */
export async function findTradesByIdempotencyKeys(
  db: StatementTarget,
  keys: readonly KeyedPlacement[],
): Promise<{ key: KeyedPlacement; trade: TradeRow }[]> {
  if (keys.length === 0) return [];
  const { rows } = await findByKeys(db, uncachedTextArray(keys, userIdOf), uncachedTextArray(keys, keyOf));
  return rows.map(({ found_by_user_id: userId, ...trade }) => ({
    key: { userId, idempotencyKey: trade.idempotency_key! },
    trade,
  }));
}

const userIdOf = (k: KeyedPlacement) => k.userId;
const keyOf = (k: KeyedPlacement) => k.idempotencyKey;

export interface PlacementContext {
  /** The known pairs among those asked for; an unknown pair is absent. */
  readonly pairs: ReadonlyMap<string, { symbol: string; active: boolean; payout_pct: number }>;
  readonly stakeCentsMax: number;
  /** The credited amount of each user's active bonus; a user without one is absent. */
  readonly activeBonusCents: ReadonlyMap<string, number>;
  /** Each user's open real trades and the caps on them, for the users with a cap (README "Risk controls"). */
  readonly traders: ReadonlyMap<string, TraderRisk>;
}

interface ContextRow {
  kind: 'settings' | 'pair' | 'user';
  key: string | null;
  pair_active: boolean | null;
  pair_payout_pct: number | null;
  cents: number | null;
  max_stake: number | null;
  max_trades: number | null;
  open_trades: number | null;
  open_stake: number | null;
}

/** `loadPlacementContext`'s statement, built from its owners' column expressions. */
function placementContextQuery(symbols: readonly string[], userIds: readonly string[]) {
  // Users go in as text and come back keyed by the caller's own strings; compared as uuids.
  const stake = stakeTermsColumns(sql<string>`${sql.ref('u.id')}::uuid`);
  const pair = pairTermsColumns(sql.ref<string>('p.symbol'));
  return sql<ContextRow>`
    select 'settings' as kind, null::text as key, null::boolean as pair_active,
           null::numeric as pair_payout_pct, ${stake.stakeCentsMax}::bigint as cents,
           null::bigint as max_stake, null::integer as max_trades, null::bigint as open_trades,
           null::bigint as open_stake
    union all
    select 'pair', p.symbol, ${pair.active}, ${pair.payoutPct}, null, null, null, null, null
    -- The arrays as scalar subqueries: one plan for every batch size (see executePrepared).
    from unnest((select ${symbols}::text[])) as p (symbol)
    union all
    select 'user', u.id, null, null, ${stake.activeBonusCents}, c.max_stake, c.max_trades,
           case when c.capped then (select count(*) from trades t
             where t.user_id = u.id::uuid and t.status = 'pending' and t.account_type = 'real') end,
           case when c.capped then (select coalesce(sum(t.amount_cents), 0) from trades t
             where t.user_id = u.id::uuid and t.status = 'pending' and t.account_type = 'real') end
    from unnest((select ${userIds}::text[])) as u (id)
    cross join lateral (
      select least(s.trader_max_open_stake_cents, l.max_open_stake_cents) as max_stake,
             least(s.trader_max_open_trades, l.max_open_trades) as max_trades,
             coalesce(s.trader_max_open_stake_cents, s.trader_max_open_trades,
                      l.max_open_stake_cents, l.max_open_trades) is not null as capped
      from risk_settings s left join risk_trader_limits l on l.user_id = u.id::uuid
    ) c`;
}

/**
 * Compiles without a connection (kysely's documented compile-only set-up): the statement's text is
 * made once from the builders, whichever transaction runs it.
 */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * The statement's text, compiled once from the builders on first use and then only bound: its
 * two arrays are its only parameters, checked by identity, and go as array literals.
 */
let placementContext:
  ((trx: StatementTarget, symbols: string, userIds: string) => Promise<{ rows: ContextRow[] }>) | undefined;

function placementContextStatement() {
  if (placementContext === undefined) {
    const symbols: string[] = [];
    const userIds: string[] = [];
    const compiled = placementContextQuery(symbols, userIds).compile(compiler);
    const [first, second, ...rest] = compiled.parameters;
    if (first !== symbols || second !== userIds || rest.length > 0) {
      throw new Error('the placement context statement must take exactly its two arrays as parameters');
    }
    placementContext = preparedStatement<ContextRow, [symbols: string, userIds: string]>(compiled.sql);
  }
  return placementContext;
}

const same = (text: string) => text;

/**
 * What a batch of placements decides on besides the balances: its pairs, the wallet's stake
 * terms (the platform's stake ceiling, each user's active bonus) and each user's caps on open
 * real trades (the lower of the default and their own) with their open real trades, counted only
 * for a user with a cap. One prepared statement whatever the batch's size: a row for the
 * settings, one per pair, one per user, each built from the owners' scalar subqueries (cheap to
 * plan, one index probe each). Called after the wallet's `lockStakeAccounts`, so (under READ
 * COMMITTED) it sees everything committed before the lock was granted, as separate reads would;
 * and since every placement of a user takes those locks, the user's open trades cannot change
 * before this batch commits.
 */
export async function loadPlacementContext(
  trx: StatementTarget,
  symbols: readonly string[],
  userIds: readonly string[],
): Promise<PlacementContext> {
  const { rows } = await placementContextStatement()(
    trx,
    textArray([...new Set(symbols)], same),
    uncachedTextArray([...new Set(userIds)], same),
  );
  const settings = rows.find((row) => row.kind === 'settings');
  // platform_settings is a singleton created by its migration; without it nothing can be placed.
  if (!settings || settings.cents === null) throw new Error('platform_settings has no row');
  const pairs = new Map<string, { symbol: string; active: boolean; payout_pct: number }>();
  const activeBonusCents = new Map<string, number>();
  const traders = new Map<string, TraderRisk>();
  for (const row of rows) {
    if (row.kind === 'pair' && row.key !== null && row.pair_active !== null && row.pair_payout_pct !== null) {
      pairs.set(row.key, { symbol: row.key, active: row.pair_active, payout_pct: row.pair_payout_pct });
    }
    if (row.kind === 'user' && row.key !== null) {
      if (row.cents !== null) activeBonusCents.set(row.key, row.cents);
      if (row.open_trades !== null) {
        traders.set(row.key, {
          openTrades: Number(row.open_trades),
          openStakeCents: Number(row.open_stake ?? 0),
          openTradesMax: row.max_trades,
          openStakeCentsMax: row.max_stake,
        });
      }
    }
  }
  return { pairs, stakeCentsMax: settings.cents, activeBonusCents, traders };
}

export interface NewTrade {
  readonly id: string;
  readonly userId: string;
  readonly idempotencyKey: string | null;
  readonly trade: AcceptedTrade;
}

/** Inserts pending trades with one statement whatever their number; returns them in the order given. */
export async function insertTrades(trx: StatementTarget, rows: readonly NewTrade[]): Promise<TradeRow[]> {
  if (rows.length === 0) return [];
  const { rows: inserted } = await insertRows(
    trx,
    uncachedTextArray(rows, (r) => r.id),
    uncachedTextArray(rows, (r) => r.userId),
    textArray(rows, (r) => r.trade.pair),
    textArray(rows, (r) => r.trade.direction),
    textArray(rows, (r) => r.trade.accountType),
    numberArray(rows, (r) => r.trade.amountCents),
    numberArray(rows, (r) => r.trade.stakeFromCashCents),
    numberArray(rows, (r) => r.trade.stakeFromBonusCents),
    numberArray(rows, (r) => r.trade.payoutPct),
    numberArray(rows, (r) => r.trade.durationSec),
    numberArray(rows, (r) => r.trade.entryPrice),
    numberArray(rows, (r) => r.trade.entryAtMs),
    nullableNumberArray(rows, (r) => r.trade.entryTickId),
    numberArray(rows, (r) => r.trade.acceptedAtMs),
    numberArray(rows, (r) => r.trade.expiryAtMs),
    nullableTextArray(rows, (r) => r.idempotencyKey),
    uncachedTextArray(rows, (r) => new Date(r.trade.acceptedAtMs).toISOString()),
  );
  // The statement returns its rows in the order of the arrays (`unnest` feeds the insert in order,
  // and `returning` gives the rows as inserted); checked by id all the same.
  const trades = new Array<TradeRow>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const back = inserted[i]?.id === row.id ? inserted[i] : inserted.find(({ id }) => id === row.id);
    if (!back) throw new Error(`insert into trades returned no row for ${row.id}`);
    trades[i] = insertedTrade(row, back);
  }
  return trades;
}

/** The row as inserted: every column, as `select` would give it (the int test compares the two). */
function insertedTrade({ trade, idempotencyKey }: NewTrade, back: InsertedRow): TradeRow {
  return {
    id: back.id,
    user_id: back.user_id,
    pair: trade.pair,
    direction: trade.direction,
    account_type: trade.accountType,
    amount_cents: trade.amountCents,
    stake_cash_cents: trade.stakeFromCashCents,
    stake_bonus_cents: trade.stakeFromBonusCents,
    payout_pct: back.payout_pct,
    duration_sec: trade.durationSec,
    entry_price: trade.entryPrice,
    entry_at_ms: trade.entryAtMs,
    entry_tick_id: trade.entryTickId,
    accepted_at_ms: trade.acceptedAtMs,
    expiry_at_ms: trade.expiryAtMs,
    status: back.status,
    exit_price: null,
    exit_at_ms: null,
    exit_tick_id: null,
    pnl_cents: null,
    turnover_cents: null,
    settled_at_ms: null,
    void_reason: null,
    reference_check: null,
    settled_xact_id: null,
    settled_seq: null,
    opened_xact_id: back.opened_xact_id,
    opened_seq: back.opened_seq,
    idempotency_key: idempotencyKey,
    created_at: new Date(trade.acceptedAtMs),
  };
}
