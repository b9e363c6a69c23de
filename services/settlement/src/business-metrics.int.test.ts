import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, Registry, type Database } from '@updown/runtime';
import { changePairRiskSettings } from '@updown/order';
import { startBusinessMetrics, type RunningBusinessMetrics } from './business-metrics';
import { createHarness, logger, metricValue, waitFor, type Harness } from './testing/harness';

let h: Harness;
const running: RunningBusinessMetrics[] = [];

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await Promise.allSettled(running.map((r) => r.stop()));
  await h.close();
});

function start(options: Partial<Parameters<typeof startBusinessMetrics>[0]> = {}) {
  const registry = options.registry ?? new Registry();
  const metrics = startBusinessMetrics({ db: h.db, registry, logger, ...options });
  running.push(metrics);
  return { registry, metrics };
}

/** Every series of a gauge, as `labels → value`, read the way a scrape reads it (collect included). */
async function series(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`${name} is not registered`);
  const { values } = await metric.get();
  return Object.fromEntries(values.map((v) => [Object.values(v.labels).join('/'), v.value]));
}

describe('open exposure and house P/L, computed at scrape time', () => {
  it('sums pending stakes by pair, direction and account, and moves settled stakes into the house result', async () => {
    // The trading clock: the breaker's window ends at its now, as settlement's does.
    const { registry } = start({ clock: h.clock });
    const t = h.clock.nowMs() + 1_000;
    h.clock.set(t);
    await h.tick('EURUSD', t, 1.1);
    await h.tick('BTCUSDT', t, 90_000);
    const user = await h.newUser({ demo: 1_000_000, real: 100_000 });
    const place = (
      pair: string,
      direction: 'UP' | 'DOWN',
      accountType: 'demo' | 'real',
      amountCents: number,
    ) => h.place({ userId: user, pair, direction, accountType, amountCents });
    const demoUp = await place('EURUSD', 'UP', 'demo', 1_000);
    const demoUpToo = await place('EURUSD', 'UP', 'demo', 500);
    const realDown = await place('EURUSD', 'DOWN', 'real', 2_500);
    await place('BTCUSDT', 'DOWN', 'demo', 700);

    expect(await series(registry, 'updown_open_exposure_cents')).toEqual({
      'BTCUSDT/DOWN/demo': 700,
      'EURUSD/DOWN/real': 2_500,
      'EURUSD/UP/demo': 1_500,
    });
    expect(await series(registry, 'updown_house_pnl_cents')).toEqual({ demo: 0, real: 0 });
    // The risk book counts real trades only: $25 DOWN at 80% can cost the house $20.
    const risk = await series(registry, 'updown_risk_exposure_cents');
    expect(risk).toMatchObject({ 'EURUSD/UP': -2_500, 'EURUSD/DOWN': 2_000 });
    // A $10 loss limit on EURUSD: the real DOWN trade's win trips the breaker when it settles.
    await h.db.transaction().execute((trx) =>
      changePairRiskSettings(trx, 'EURUSD', {
        capCents: { UP: null, DOWN: 5_000 },
        skewMaxPct: 0,
        skewFullAtCents: 100_000,
        lossLimitCents: 1_000,
        lossWindowMin: 60,
      }),
    );
    expect(await series(registry, 'updown_risk_exposure_cap_cents')).toEqual({ 'EURUSD/DOWN': 5_000 });
    expect(await series(registry, 'updown_risk_pair_suspended')).toMatchObject({ EURUSD: 0 });

    // EURUSD falls: the demo UP stakes are lost to the house, the real DOWN trade wins 80%.
    const settlement = await h.start();
    h.clock.set(t + 59_000);
    await h.tick('EURUSD', t + 59_000, 1.0);
    h.clock.set(t + 60_500);
    await h.tick('EURUSD', t + 60_500, 1.05);
    await waitFor(
      async () =>
        (await Promise.all([demoUp, demoUpToo, realDown].map((x) => h.trade(x.id)))).every(
          (x) => x.status !== 'pending',
        ),
      'the EURUSD trades to settle',
    );
    await settlement.stop();

    expect(await series(registry, 'updown_open_exposure_cents')).toEqual({ 'BTCUSDT/DOWN/demo': 700 });
    expect(await series(registry, 'updown_house_pnl_cents')).toEqual({ demo: 1_500, real: -2_000 });
    expect(await series(registry, 'updown_risk_exposure_cents')).toMatchObject({
      'EURUSD/UP': 0,
      'EURUSD/DOWN': 0,
    });
    expect(await series(registry, 'updown_risk_pair_suspended')).toMatchObject({ EURUSD: 1 });
    expect(await series(registry, 'updown_risk_house_pnl_window_cents')).toEqual({ EURUSD: -2_000 });
    expect(await metricValue(h.registry, 'updown_risk_suspensions_total', { pair: 'EURUSD' })).toBe(1);
    // The ledger and the trades table agree: the house's real result mirrors the traders' cash P/L.
    const traders = await h.db
      .selectFrom('trades')
      .select((eb) => eb.fn.sum<number>('pnl_cents').as('pnl'))
      .where('account_type', '=', 'real')
      .where('status', '<>', 'pending')
      .executeTakeFirstOrThrow();
    expect(-Number(traders.pnl)).toBe(-2_000);
  });

  it('leaves a series out, counts the failure and still answers the scrape when its query cannot finish', async () => {
    const { registry } = start({ options: { queryTimeoutMs: 300 } });
    // Another session holds the trades table: the exposure query waits on the lock until cancelled.
    const blocker = await h.database.pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table trades in access exclusive mode');
      const text = await registry.metrics();
      expect(text).not.toMatch(/^updown_open_exposure_cents\{/m);
      expect(text).toMatch(/^updown_house_pnl_cents\{account="demo"/m);
      expect(
        await metricValue(registry, 'updown_business_metric_failures_total', { metric: 'open_exposure' }),
      ).toBe(1);
    } finally {
      await blocker.query('rollback');
      blocker.release();
    }
    expect(Object.keys(await series(registry, 'updown_open_exposure_cents')).length).toBeGreaterThan(0);
  });
});

describe('ledger verification', () => {
  it('records a clean ledger, then a tampered balance as a violation, and recovers once it is repaired', async () => {
    const clock = new ManualClock(Date.UTC(2026, 1, 1));
    const { registry, metrics } = start({ clock });
    const report = await metrics.verifyLedgerNow();
    expect(report?.ok).toBe(true);
    expect(await metricValue(registry, 'updown_ledger_last_verify_ok')).toBe(1);
    expect(await metricValue(registry, 'updown_ledger_violations')).toBe(0);
    expect(await metricValue(registry, 'updown_ledger_last_verify_timestamp_seconds')).toBe(
      Date.UTC(2026, 1, 1) / 1000,
    );

    // Balances are the one mutable part of the ledger, so this is what a bad hand edit looks like.
    await sql`update ledger_accounts set balance = balance + 1 where code = 'house_demo:00'`.execute(h.db);
    try {
      expect((await metrics.verifyLedgerNow())?.ok).toBe(false);
      expect(await metricValue(registry, 'updown_ledger_last_verify_ok')).toBe(0);
      expect(await metricValue(registry, 'updown_ledger_violations')).toBe(1);
      expect(
        await metricValue(registry, 'updown_ledger_verify_failures_total', { reason: 'violations' }),
      ).toBe(1);
    } finally {
      await sql`update ledger_accounts set balance = balance - 1 where code = 'house_demo:00'`.execute(h.db);
    }
    await metrics.verifyLedgerNow();
    expect(await metricValue(registry, 'updown_ledger_last_verify_ok')).toBe(1);
  });

  it('verifies without parallel workers, and leaves the pooled connection as it found it', async () => {
    // One connection, so the check after the verification runs on the connection it used.
    const pool = new pg.Pool({ connectionString: h.database.url, max: 1 });
    const statements: string[] = [];
    const single = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => void statements.push(event.query.sql.replace(/\s+/g, ' ').trim()),
    });
    try {
      const { rows: before } = await sql<{
        max_parallel_workers_per_gather: string;
      }>`show max_parallel_workers_per_gather`.execute(single);
      const { metrics } = start({ db: single, clock: new ManualClock(Date.UTC(2026, 1, 1)) });
      expect((await metrics.verifyLedgerNow())?.ok).toBe(true);
      const set = statements.indexOf('set max_parallel_workers_per_gather = 0');
      const reset = statements.indexOf('reset max_parallel_workers_per_gather');
      const scans = statements.findIndex((text) => text.includes('from ledger_postings'));
      expect(set).toBeGreaterThan(-1);
      expect(scans).toBeGreaterThan(set);
      expect(reset).toBeGreaterThan(scans);
      const { rows: after } = await sql<{
        max_parallel_workers_per_gather: string;
      }>`show max_parallel_workers_per_gather`.execute(single);
      expect(after[0]!.max_parallel_workers_per_gather).toBe(before[0]!.max_parallel_workers_per_gather);
      await metrics.stop();
    } finally {
      await single.destroy();
    }
  });

  it('runs on its interval and stops running once stopped', async () => {
    const clock = new ManualClock(Date.UTC(2026, 1, 1));
    const { registry, metrics } = start({ clock, options: { ledgerVerifyIntervalMs: 60_000 } });
    const verifiedAt = () => metricValue(registry, 'updown_ledger_last_verify_timestamp_seconds');
    clock.advance(59_999);
    await metrics.verifyLedgerNow().then(() => undefined);
    // The direct call above ran at 59.999 s; the timer has not fired yet.
    expect(await verifiedAt()).toBe(Date.UTC(2026, 1, 1) / 1000 + 59.999);
    clock.advance(1);
    await waitFor(async () => (await verifiedAt()) === Date.UTC(2026, 1, 1) / 1000 + 60, 'the timed run');
    await metrics.stop();
    const runs = await verifiedAt();
    clock.advance(600_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await verifiedAt()).toBe(runs);
  });

  it('counts a verification that could not run, without touching the last result', async () => {
    // Nothing listens on port 1: every connection is refused at once.
    const pool = new pg.Pool({
      connectionString: 'postgres://127.0.0.1:1/none',
      connectionTimeoutMillis: 1_000,
    });
    const unreachable = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      const { registry, metrics } = start({ db: unreachable });
      expect(await metrics.verifyLedgerNow()).toBeUndefined();
      expect(await metricValue(registry, 'updown_ledger_verify_failures_total', { reason: 'error' })).toBe(1);
      // No verification has finished: the result gauges are absent rather than a false 0.
      expect(registry.getSingleMetric('updown_ledger_last_verify_ok')).toBeUndefined();
      expect(registry.getSingleMetric('updown_ledger_last_verify_timestamp_seconds')).toBeUndefined();
      // The scrape still answers, without the series it could not compute.
      const text = await registry.metrics();
      expect(text).not.toMatch(/^updown_house_pnl_cents\{/m);
      expect(
        await metricValue(registry, 'updown_business_metric_failures_total', { metric: 'house_pnl' }),
      ).toBe(1);
      await metrics.stop();
    } finally {
      await unreachable.destroy();
    }
  });
});
