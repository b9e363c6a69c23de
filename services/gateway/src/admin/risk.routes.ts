import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import {
  bookOf,
  DEFAULT_PAIR_RISK,
  exposureCents,
  listPairRisks,
  listTopToxicity,
  lockPairRiskForChange,
  lockTraderDefaults,
  offeredPayoutPct,
  pnlSince,
  readTraderDefaults,
  resumePair,
  settingsOf,
  traderLimitsOf,
  windowPnl,
  writePairRiskSettings,
  writeTraderDefaults,
  writeTraderLimits,
  type PairBook,
  type PairRiskSettings,
  type RiskPairRow,
  type ToxicityRow,
  type TraderCaps,
} from '@updown/order';
import { listPairs, lockPair, PAIRS_KNOWN_MAX } from '@updown/price-ingest';
import { DomainError, type Clock, type Database } from '@updown/runtime';
import {
  PairRisk,
  PairRiskParams,
  RiskOverview,
  TraderLimits,
  TraderRiskDefaults,
  UpdatePairRiskBody,
  UpdateTraderLimitsBody,
  type DirectionExposure,
  type ToxicityScore,
} from '@updown/schemas/api';
import { findUserById, usersByIds } from '../auth/users.repository';
import { centsToDollars, dollarsToCents } from '../http/money';
import { errorResponses } from '../http/responses';
import { writeAudit } from './audit.repository';

/** Traders the Risk tab lists by toxicity. */
const TOP_TRADERS = 10;

class InvalidRiskSettings extends DomainError {
  constructor(detail: string) {
    super('INVALID_RISK_SETTINGS', detail);
  }
}

class NotFound extends DomainError {
  constructor(detail: string) {
    super('NOT_FOUND', detail);
  }
}

const cents = (dollars: number | null): number | null => {
  if (dollars === null) return null;
  const value = dollarsToCents(dollars);
  if (value === undefined) throw new InvalidRiskSettings('Amounts have at most 2 decimals');
  return value;
};
const dollars = (value: number | null): number | null => (value === null ? null : centsToDollars(value));
const dollarsText = (value: number): string =>
  `$${centsToDollars(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function settingsView(settings: PairRiskSettings) {
  return {
    exposure_cap_up: dollars(settings.capCents.UP),
    exposure_cap_down: dollars(settings.capCents.DOWN),
    skew_max_pct: settings.skewMaxPct,
    skew_full_at: centsToDollars(settings.skewFullAtCents),
    loss_limit: dollars(settings.lossLimitCents),
    loss_window_min: settings.lossWindowMin,
  };
}

function sideView(
  book: PairBook,
  settings: PairRiskSettings,
  payoutPct: number,
  direction: 'UP' | 'DOWN',
): DirectionExposure {
  const exposure = exposureCents(book, direction);
  const cap = settings.capCents[direction];
  return {
    open_trades: book[direction].openTrades,
    open_stake: centsToDollars(book[direction].stakeCents),
    potential_profit: centsToDollars(book[direction].profitCents),
    exposure: centsToDollars(exposure),
    cap: dollars(cap),
    used_pct:
      cap === null
        ? null
        : cap === 0
          ? exposure > 0
            ? 100
            : 0
          : Math.round((Math.max(0, exposure) / cap) * 1000) / 10,
    payout_pct: offeredPayoutPct(payoutPct, settings, book, direction),
  };
}

export function pairRiskView(
  pair: { symbol: string; payout_pct: number },
  row: RiskPairRow | undefined,
  pnl: { today: number; window: number },
): PairRisk {
  const settings = row ? settingsOf(row) : DEFAULT_PAIR_RISK.settings;
  const book = row ? bookOf(row) : DEFAULT_PAIR_RISK.book;
  const suspendedAt = row?.suspended_at_ms ?? null;
  return {
    symbol: pair.symbol,
    payout_pct: pair.payout_pct,
    settings: settingsView(settings),
    up: sideView(book, settings, pair.payout_pct, 'UP'),
    down: sideView(book, settings, pair.payout_pct, 'DOWN'),
    pnl_today: centsToDollars(pnl.today),
    pnl_window: centsToDollars(pnl.window),
    suspended: suspendedAt !== null,
    suspended_at: suspendedAt === null ? null : new Date(suspendedAt).toISOString(),
    suspended_reason: row?.suspended_reason ?? null,
  };
}

export function toxicityView(row: ToxicityRow): ToxicityScore {
  return {
    score: row.score,
    trades: row.trades,
    wins: row.wins,
    z_score: Math.round(row.z_score * 100) / 100,
    after_move_pct: Math.round(row.after_move_pct * 10) / 10,
    profit_factor: row.profit_factor === null ? null : Math.round(row.profit_factor * 100) / 100,
    components: {
      skill: Math.round(row.skill * 1000) / 1000,
      latency: Math.round(row.latency * 1000) / 1000,
      profit: Math.round(row.profit * 1000) / 1000,
    },
    window_days: row.window_days,
    computed_at: new Date(row.computed_at_ms).toISOString(),
  };
}

export function limitsView(caps: TraderCaps | undefined): TraderLimits | null {
  if (!caps) return null;
  return { max_open_stake: dollars(caps.openStakeCentsMax), max_open_trades: caps.openTradesMax };
}

function defaultsView(caps: TraderCaps): TraderRiskDefaults {
  return { max_open_stake: dollars(caps.openStakeCentsMax), max_open_trades: caps.openTradesMax };
}

/** The start of the current UTC day: the Risk tab's "today". */
function utcDayStart(nowMs: number): number {
  return Math.floor(nowMs / 86_400_000) * 86_400_000;
}

async function readPairRisk(
  db: Kysely<Database> | Transaction<Database>,
  pair: { symbol: string; payout_pct: number },
  row: RiskPairRow,
  nowMs: number,
): Promise<PairRisk> {
  const [today, window] = await Promise.all([
    pnlSince(db, utcDayStart(nowMs), [pair.symbol]),
    windowPnl(db, [row], nowMs),
  ]);
  return pairRiskView(pair, row, {
    today: today.get(pair.symbol) ?? 0,
    window: window.get(pair.symbol) ?? 0,
  });
}

/**
 * The admin's risk controls (README "Risk controls"): `GET /api/admin/risk` (the Risk tab), a
 * pair's settings, resuming a suspended pair, the default trader caps and a trader's own. Every
 * change is audited with its before and after. No guard here: the auth plugin adds `requireAdmin`
 * to every `/api/admin/*` route.
 */
export function adminRiskRoutes(deps: {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
}): FastifyPluginAsyncTypebox {
  const { db, clock } = deps;
  const tags = ['admin'];
  return async (app) => {
    app.get(
      '/api/admin/risk',
      {
        schema: {
          tags,
          summary:
            'Live exposure per pair and direction against its cap, house P/L per pair today, suspended pairs, default trader caps and the top traders by toxicity',
          response: { 200: RiskOverview, ...errorResponses(401, 403) },
        },
      },
      async () => {
        const now = clock.nowMs();
        const [pairs, risks, today, defaults, top] = await Promise.all([
          listPairs(db, PAIRS_KNOWN_MAX, now),
          listPairRisks(db),
          pnlSince(db, utcDayStart(now)),
          readTraderDefaults(db),
          listTopToxicity(db, TOP_TRADERS),
        ]);
        // Every pair's window, armed or not: the tab shows what the breaker would see.
        const windows = await windowPnl(db, [...risks.values()], now);
        const ids = top.map((t) => t.user_id);
        const [users, limits] = await Promise.all([usersByIds(db, ids), traderLimitsOf(db, ids)]);
        return {
          pairs: pairs.map((pair) =>
            pairRiskView(pair, risks.get(pair.symbol), {
              today: today.get(pair.symbol) ?? 0,
              window: windows.get(pair.symbol) ?? 0,
            }),
          ),
          trader_defaults: defaultsView(defaults),
          top_traders: top.flatMap((t) => {
            const user = users.get(t.user_id);
            if (!user) return [];
            return [
              {
                user_id: t.user_id,
                name: user.name,
                email: user.email,
                toxicity: toxicityView(t),
                limits: limitsView(limits.get(t.user_id)),
              },
            ];
          }),
          generated_at: new Date(now).toISOString(),
        };
      },
    );

    app.put(
      '/api/admin/risk/pairs/:symbol',
      {
        schema: {
          tags,
          summary: "Set a pair's exposure caps, payout skew and loss breaker; applies to the next placement",
          params: PairRiskParams,
          body: UpdatePairRiskBody,
          response: { 200: PairRisk, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const symbol = request.params.symbol.toUpperCase();
        const body = request.body;
        const settings: PairRiskSettings = {
          capCents: { UP: cents(body.exposure_cap_up), DOWN: cents(body.exposure_cap_down) },
          skewMaxPct: body.skew_max_pct,
          skewFullAtCents: cents(body.skew_full_at)!,
          lossLimitCents: cents(body.loss_limit),
          lossWindowMin: body.loss_window_min,
        };
        return db.transaction().execute(async (trx) => {
          const pair = await lockPair(trx, symbol);
          if (!pair) throw new NotFound(`Unknown pair: ${symbol}`);
          const before = await lockPairRiskForChange(trx, symbol);
          const after = await writePairRiskSettings(trx, symbol, settings);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'risk.pair',
            target: symbol,
            before: settingsView(settingsOf(before)),
            after: settingsView(settingsOf(after)),
            at: clock.nowMs(),
          });
          return readPairRisk(trx, pair, after, clock.nowMs());
        });
      },
    );

    app.post(
      '/api/admin/risk/pairs/:symbol/resume',
      {
        schema: {
          tags,
          summary:
            'Lift the loss breaker: real placements on the pair are taken again, and its window counts from the next whole minute',
          params: PairRiskParams,
          response: { 200: PairRisk, ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const symbol = request.params.symbol.toUpperCase();
        return db.transaction().execute(async (trx) => {
          const pair = await lockPair(trx, symbol);
          if (!pair) throw new NotFound(`Unknown pair: ${symbol}`);
          const before = await lockPairRiskForChange(trx, symbol);
          if (before.suspended_at_ms === null) {
            throw new DomainError('PAIR_NOT_SUSPENDED', `Real trading on ${symbol} is not suspended`);
          }
          const now = clock.nowMs();
          const after = await resumePair(trx, symbol, now);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'risk.resume',
            target: symbol,
            before: { suspended_at_ms: before.suspended_at_ms, suspended_reason: before.suspended_reason },
            after: { suspended_at_ms: null, resumed_at_ms: now },
            at: now,
          });
          return readPairRisk(trx, pair, after, now);
        });
      },
    );

    app.put(
      '/api/admin/risk/traders',
      {
        schema: {
          tags,
          summary:
            "The default caps on every trader's open real trades (a trader's own caps can only be lower)",
          body: UpdateTraderLimitsBody,
          response: { 200: TraderRiskDefaults, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const caps: TraderCaps = {
          openStakeCentsMax: cents(request.body.max_open_stake),
          openTradesMax: request.body.max_open_trades,
        };
        return db.transaction().execute(async (trx) => {
          const before = await lockTraderDefaults(trx);
          await writeTraderDefaults(trx, caps);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'risk.trader_defaults',
            target: 'traders',
            before: defaultsView(before),
            after: defaultsView(caps),
            at: clock.nowMs(),
          });
          return defaultsView(caps);
        });
      },
    );

    app.put(
      '/api/admin/users/:id/limits',
      {
        schema: {
          tags,
          summary:
            "Set a trader's own caps on open real trades, lower than the defaults; nulls fall back to the defaults",
          params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
          body: UpdateTraderLimitsBody,
          response: { 200: TraderLimits, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const userId = request.params.id;
        const caps: TraderCaps = {
          openStakeCentsMax: cents(request.body.max_open_stake),
          openTradesMax: request.body.max_open_trades,
        };
        return db.transaction().execute(async (trx) => {
          if (!(await findUserById(trx, userId))) throw new NotFound('User not found');
          const defaults = await lockTraderDefaults(trx);
          if (
            caps.openStakeCentsMax !== null &&
            defaults.openStakeCentsMax !== null &&
            caps.openStakeCentsMax > defaults.openStakeCentsMax
          ) {
            throw new InvalidRiskSettings(
              `A trader's cap can only be lower than the default (open stake ${dollarsText(defaults.openStakeCentsMax)})`,
            );
          }
          if (
            caps.openTradesMax !== null &&
            defaults.openTradesMax !== null &&
            caps.openTradesMax > defaults.openTradesMax
          ) {
            throw new InvalidRiskSettings(
              `A trader's cap can only be lower than the default (${defaults.openTradesMax} open trades)`,
            );
          }
          const before = (await traderLimitsOf(trx, [userId])).get(userId);
          await writeTraderLimits(trx, userId, caps);
          await writeAudit(trx, {
            actorId: request.user.id,
            action: 'risk.trader_limits',
            target: userId,
            before: limitsView(before),
            after: limitsView(caps),
            at: clock.nowMs(),
          });
          return limitsView(caps) ?? { max_open_stake: null, max_open_trades: null };
        });
      },
    );
  };
}
