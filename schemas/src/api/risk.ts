import { Type, type Static } from '@sinclair/typebox';
import { PairSymbol } from './market';
import { RequestBody } from './request-body';
import { refusal } from './refusal';

/**
 * Risk controls (README "Risk controls"): exposure caps per pair and direction, caps per trader,
 * payout skew and the loss circuit-breaker, and each trader's toxicity score. Money is in dollars
 * here, as everywhere in the API; the engine keeps cents.
 */

/** Most an admin can skew a payout: the heavier side's payout drops by at most this many points. */
export const SKEW_MAX_PCT_MAX = 50;
/** Shortest and longest rolling window of the loss circuit-breaker, minutes. */
export const LOSS_WINDOW_MIN_MIN = 5;
export const LOSS_WINDOW_MIN_MAX = 1_440;
/** Largest cap or limit an admin can type, dollars (ten million). */
export const RISK_DOLLARS_MAX = 10_000_000;
/** Most open trades a trader cap can allow. */
export const TRADER_OPEN_TRADES_MAX = 100_000;

const Dollars = (description: string, minimum: number) =>
  Type.Union(
    [
      Type.Number({
        minimum,
        maximum: RISK_DOLLARS_MAX,
        multipleOf: 0.01,
        ...refusal('INVALID_RISK_SETTINGS', {
          minimum: `Amounts must be at least $${minimum.toFixed(2)}`,
          maximum: `Amounts must be at most $${RISK_DOLLARS_MAX.toLocaleString('en-US')}.00`,
          multipleOf: 'Amounts have at most 2 decimals',
          '*': 'Amounts must be numbers of dollars, or null for none',
        }),
      }),
      Type.Null(),
    ],
    { description },
  );

const pairRiskSettingsInput = {
  exposure_cap_up: Dollars(
    "Most the house may lose on this pair's open real UP trades if UP wins (their potential profit minus the open DOWN stakes), dollars; null for no cap",
    0,
  ),
  exposure_cap_down: Dollars('The same for DOWN; null for no cap', 0),
  skew_max_pct: Type.Integer({
    minimum: 0,
    maximum: SKEW_MAX_PCT_MAX,
    description:
      "Most points the heavier side's payout drops when the open real stakes are imbalanced; 0 turns skew off",
    ...refusal('INVALID_RISK_SETTINGS', {
      '*': `The skew is a whole number of points from 0 to ${SKEW_MAX_PCT_MAX}`,
    }),
  }),
  skew_full_at: Type.Number({
    minimum: 1,
    maximum: RISK_DOLLARS_MAX,
    multipleOf: 0.01,
    description:
      'Imbalance of open real stakes (heavier side minus lighter side, dollars) at which the whole skew applies; the drop grows linearly up to it',
    ...refusal('INVALID_RISK_SETTINGS', {
      '*': `The imbalance for the full skew is $1.00 to $${RISK_DOLLARS_MAX.toLocaleString('en-US')}.00`,
    }),
  }),
  loss_limit: Dollars(
    "Real placements on the pair are suspended when the house's real P/L on it over the window falls below minus this, dollars; null for no breaker",
    1,
  ),
  loss_window_min: Type.Integer({
    minimum: LOSS_WINDOW_MIN_MIN,
    maximum: LOSS_WINDOW_MIN_MAX,
    description: 'Rolling window of the loss circuit-breaker, minutes',
    ...refusal('INVALID_RISK_SETTINGS', {
      '*': `The window is ${LOSS_WINDOW_MIN_MIN} to ${LOSS_WINDOW_MIN_MAX} minutes`,
    }),
  }),
};

export const UpdatePairRiskBody = RequestBody(pairRiskSettingsInput, { title: 'UpdatePairRiskBody' });
export type UpdatePairRiskBody = Static<typeof UpdatePairRiskBody>;

// Answers carry plain numbers: a `multipleOf` in a response schema would be judged by the
// serialiser without the request validator's tolerance (9353972.94 / 0.01 is not a whole number
// in binary floating point), and fail an answer that is right.
const NullableDollars = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const PairRiskSettings = Type.Object(
  {
    exposure_cap_up: NullableDollars('Cap on UP exposure, dollars; null for none'),
    exposure_cap_down: NullableDollars('Cap on DOWN exposure, dollars; null for none'),
    skew_max_pct: Type.Integer({ description: "Most points the heavier side's payout drops; 0 for no skew" }),
    skew_full_at: Type.Number({
      description: 'Imbalance of open real stakes at which the whole skew applies, dollars',
    }),
    loss_limit: NullableDollars('Loss limit of the breaker, dollars; null for no breaker'),
    loss_window_min: Type.Integer({ description: 'Rolling window of the breaker, minutes' }),
  },
  { title: 'PairRiskSettings', description: "A pair's risk settings, as `UpdatePairRiskBody` sets them" },
);
export type PairRiskSettings = Static<typeof PairRiskSettings>;
export const PairRiskParams = Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 32 }) });
export type PairRiskParams = Static<typeof PairRiskParams>;

export const DirectionExposure = Type.Object(
  {
    open_trades: Type.Integer({ description: 'Open real trades on this side' }),
    open_stake: Type.Number({ description: 'Their stakes, dollars' }),
    potential_profit: Type.Number({
      description: 'What they win if this side wins (stake x payout), dollars',
    }),
    exposure: Type.Number({
      description:
        "The house's loss if this side wins: potential_profit minus the other side's open stakes, dollars (negative: the house gains)",
    }),
    cap: Type.Union([Type.Number(), Type.Null()], { description: 'The cap, dollars; null for none' }),
    used_pct: Type.Union([Type.Number(), Type.Null()], {
      description: 'exposure / cap x 100, 1 decimal, 0 when exposure is negative; null without a cap',
    }),
    payout_pct: Type.Number({ description: 'The payout offered on this side now (after skew)' }),
  },
  { title: 'DirectionExposure' },
);
export type DirectionExposure = Static<typeof DirectionExposure>;

export const PairRisk = Type.Object(
  {
    symbol: PairSymbol,
    payout_pct: Type.Number({ description: "The pair's payout, before skew" }),
    settings: PairRiskSettings,
    up: DirectionExposure,
    down: DirectionExposure,
    pnl_today: Type.Number({ description: "House's real P/L on the pair since 00:00 UTC, dollars" }),
    pnl_window: Type.Number({
      description: "House's real P/L over the breaker's window (since the last resume, if later), dollars",
    }),
    suspended: Type.Boolean({ description: 'True while the breaker holds real placements on the pair' }),
    suspended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    suspended_reason: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'PairRisk' },
);
export type PairRisk = Static<typeof PairRisk>;

const traderCapsInput = {
  max_open_stake: Dollars('Most a trader may have staked on open real trades, dollars; null for no cap', 1),
  max_open_trades: Type.Union(
    [
      Type.Integer({
        minimum: 1,
        maximum: TRADER_OPEN_TRADES_MAX,
        ...refusal('INVALID_RISK_SETTINGS', {
          '*': `Open trades are capped at a whole number from 1 to ${TRADER_OPEN_TRADES_MAX.toLocaleString('en-US')}`,
        }),
      }),
      Type.Null(),
    ],
    { description: 'Most open real trades a trader may have; null for no cap' },
  ),
};

export const TraderRiskDefaults = Type.Object(
  {
    max_open_stake: NullableDollars(
      'Most a trader may have staked on open real trades, dollars; null for no cap',
    ),
    max_open_trades: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Most open real trades a trader may have; null for no cap',
    }),
  },
  { title: 'TraderRiskDefaults' },
);
export type TraderRiskDefaults = Static<typeof TraderRiskDefaults>;

export const UpdateTraderLimitsBody = RequestBody(traderCapsInput, {
  title: 'UpdateTraderLimitsBody',
});
export type UpdateTraderLimitsBody = Static<typeof UpdateTraderLimitsBody>;

export const ToxicityScore = Type.Object(
  {
    score: Type.Integer({ minimum: 0, maximum: 100, description: '0 (plays like chance) to 100 (toxic)' }),
    trades: Type.Integer({ description: 'Settled real won/lost trades in the window' }),
    wins: Type.Integer(),
    z_score: Type.Number({
      description:
        "How far the trader's P/L is above what chance would give at their payouts, in standard deviations",
    }),
    after_move_pct: Type.Number({
      description:
        "Share of their trades placed within seconds of a large price move on the pair, in the move's direction, %",
    }),
    profit_factor: Type.Union([Type.Number(), Type.Null()], {
      description: 'Gross profit / gross loss; null without a loss',
    }),
    components: Type.Object(
      {
        skill: Type.Number({ description: '0-1, from z_score' }),
        latency: Type.Number({ description: '0-1, from after_move_pct' }),
        profit: Type.Number({ description: '0-1, from profit_factor, shrunk toward 0 for few trades' }),
      },
      { description: 'The parts the score is made of' },
    ),
    window_days: Type.Integer(),
    computed_at: Type.String({ format: 'date-time' }),
  },
  {
    title: 'ToxicityScore',
    description:
      'A trader\'s toxicity score (README "Risk controls"); null on a user before their first scored trade',
  },
);
export type ToxicityScore = Static<typeof ToxicityScore>;

export const TraderLimits = Type.Object(
  {
    max_open_stake: Type.Union([Type.Number(), Type.Null()]),
    max_open_trades: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'TraderLimits', description: "A trader's own lower caps; null fields fall back to the defaults" },
);
export type TraderLimits = Static<typeof TraderLimits>;

export const RiskTrader = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    toxicity: ToxicityScore,
    limits: Type.Union([TraderLimits, Type.Null()]),
  },
  { title: 'RiskTrader' },
);
export type RiskTrader = Static<typeof RiskTrader>;

export const RiskOverview = Type.Object(
  {
    pairs: Type.Array(PairRisk),
    trader_defaults: TraderRiskDefaults,
    top_traders: Type.Array(RiskTrader, { description: 'Highest toxicity first, at most 10' }),
    generated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'RiskOverview' },
);
export type RiskOverview = Static<typeof RiskOverview>;
