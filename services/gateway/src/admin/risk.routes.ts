import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import {
  defaultsView,
  InvalidRiskSettings,
  limitsView,
  listPairRisks,
  listTopToxicity,
  pairRiskView,
  pnlSince,
  readTraderDefaults,
  resumeRealTrading,
  setPairRisk,
  setTraderDefaults,
  setTraderLimits,
  toxicityView,
  traderLimitsOf,
  utcDayStart,
  windowPnl,
  type PairRiskSettings,
  type PairRiskState,
  type TraderCaps,
} from '@updown/order';
import { listPairs, PAIRS_KNOWN_MAX } from '@updown/price-ingest';
import type { Clock, Database } from '@updown/runtime';
import {
  dollarsToCents,
  PairRisk,
  PairRiskParams,
  RiskOverview,
  TraderLimits,
  TraderRiskDefaults,
  UpdatePairRiskBody,
  UpdateTraderLimitsBody,
} from '@updown/schemas/api';
import { usersByIds } from '@updown/accounts';
import { errorResponses } from '../http/responses';

/** Traders the Risk tab lists by toxicity. */
const TOP_TRADERS = 10;

const cents = (dollars: number | null): number | null => {
  if (dollars === null) return null;
  const value = dollarsToCents(dollars);
  if (value === undefined) throw new InvalidRiskSettings('Amounts have at most 2 decimals');
  return value;
};

const changedPairView = (state: PairRiskState): PairRisk => pairRiskView(state.pair, state.row, state.pnl);

/**
 * The admin's risk controls (README "Risk controls"): `GET /api/admin/risk` (the Risk tab), a
 * pair's settings, resuming a suspended pair, the default trader caps and a trader's own. Every
 * change is audited with its before and after, in its transaction (order's `risk-admin.handler.ts`). No guard
 * here: the auth plugin adds `requireAdmin` to every `/api/admin/*` route.
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
        return changedPairView(await setPairRisk(deps, request.user.id, symbol, settings));
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
        return changedPairView(await resumeRealTrading(deps, request.user.id, symbol));
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
        return defaultsView(await setTraderDefaults(deps, request.user.id, caps));
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
        const limits = await setTraderLimits(deps, request.user.id, userId, caps);
        return limitsView(limits) ?? { max_open_stake: null, max_open_trades: null };
      },
    );
  };
}
