/**
 * A trader's toxicity score: how strongly their recent real trading looks like an edge over the
 * house (skill, or trading on prices the platform has not caught up with) rather than chance.
 * Pure functions; `toxicity.repository.ts` reads the trades and stores the scores.
 *
 * Input, per trader: their settled real trades with status `won` or `lost` (draws and voids are
 * left out) settled in the last `TOXICITY_WINDOW_DAYS` = 7 days, the most recent
 * `TOXICITY_TRADES_MAX` = 500 of them. For each trade: the stake s (cents), the payout p =
 * payout % / 100, the outcome, the P/L (won: the profit credited, lost: −s), the direction, and the
 * prior move: the signed change of the pair's price over the `MOVE_LOOKBACK_MS` = 5,000 ms before
 * the trade was accepted, (entry price − P) / P × 10,000 bps, where P is the price of the pair's
 * stored tick at or before (acceptance − 5,000 ms); unknown when the pair has no such tick.
 *
 * Three components, each from 0 to 1:
 *
 * 1. Skill, P/L against chance at the trader's own payouts. Were each trade a fair coin, its P/L
 *    would have mean μ = s(p − 1)/2 and variance σ² = s²(p + 1)²/4. z = (Σ P/L − Σ μ) / √(Σ σ²),
 *    0 without trades. skill = clamp(z / `SKILL_Z_FULL`, 0, 1), `SKILL_Z_FULL` = 3: full at three
 *    standard deviations above chance, nothing at or below chance.
 * 2. Latency, trading on moves already seen. A trade follows a large move when its prior move is
 *    known, at least `LARGE_MOVE_BPS` = 10 bps in size, and in the trade's direction (UP after a
 *    rise, DOWN after a fall). after_move_pct = 100 × (trades that follow a large move) / (all
 *    trades, prior move known or not). A trade picked at random follows a large move rarely, so
 *    the share counts only above `AFTER_MOVE_PCT_FLOOR` = 10 %, growing linearly to full at
 *    10 + `AFTER_MOVE_PCT_SPAN` = 50 %. It counts only as far as those trades beat chance: it is
 *    scaled by clamp((w − 0.5) / `AFTER_MOVE_WIN_SPAN`, 0, 1), w the share of them won (0 at half
 *    won or less, full at 70 % won), so chasing moves that do not pay is not toxic.
 *    latency = clamp((after_move_pct − 10) / 40, 0, 1) × clamp((w − 0.5) / 0.2, 0, 1), 0 without
 *    such trades.
 * 3. Profit, how much the trader takes home. profit_factor = gross profit / gross loss (Σ P/L of
 *    won trades / −Σ P/L of lost trades), null without a lost trade. profit = clamp((pf − 1) /
 *    `PROFIT_FACTOR_SPAN`, 0, 1) with `PROFIT_FACTOR_SPAN` = 2 (full at pf 3); without a loss, pf
 *    counts as `PROFIT_FACTOR_NO_LOSS` = 3 if the trader made any profit, and profit is 0 if not
 *    (every trade won at payout 0). Few trades prove little, so profit is then shrunk by
 *    n / (n + `PROFIT_SHRINK_TRADES`), n the number of trades, `PROFIT_SHRINK_TRADES` = 30.
 *
 * score = round(100 × (0.45 × skill + 0.35 × latency + 0.20 × profit)), an integer from 0 to 100
 * that never falls when a component rises. A trader without trades scores 0.
 */

export type Direction = 'UP' | 'DOWN';

export const TOXICITY_WINDOW_DAYS = 7;
export const TOXICITY_TRADES_MAX = 500;
export const MOVE_LOOKBACK_MS = 5_000;
export const LARGE_MOVE_BPS = 10;
export const SKILL_Z_FULL = 3;
export const AFTER_MOVE_PCT_FLOOR = 10;
export const AFTER_MOVE_PCT_SPAN = 40;
export const AFTER_MOVE_WIN_SPAN = 0.2;
export const PROFIT_FACTOR_SPAN = 2;
export const PROFIT_FACTOR_NO_LOSS = 3;
export const PROFIT_SHRINK_TRADES = 30;
/** The components' weights in the score; they sum to 1, so the score stays within 0–100. */
export const TOXICITY_WEIGHTS = { skill: 0.45, latency: 0.35, profit: 0.2 } as const;

export interface ScoredTrade {
  readonly stakeCents: number;
  /** The payout the trade was placed at, percent (80 for 80 %). */
  readonly payoutPct: number;
  readonly status: 'won' | 'lost';
  /** The settled P/L: the profit on a win, minus the stake on a loss. */
  readonly pnlCents: number;
  readonly direction: Direction;
  /** The pair's move over `MOVE_LOOKBACK_MS` before acceptance, bps (`priorMoveBps`); null without an earlier tick. */
  readonly priorMoveBps: number | null;
}

export interface Toxicity {
  /** 0 (plays like chance) to 100. */
  readonly score: number;
  readonly trades: number;
  readonly wins: number;
  readonly zScore: number;
  /** Percent of the trades that follow a large move, 0–100. */
  readonly afterMovePct: number;
  /** Gross profit / gross loss; null without a lost trade. */
  readonly profitFactor: number | null;
  readonly skill: number;
  readonly latency: number;
  readonly profit: number;
}

const NO_TRADES: Toxicity = {
  score: 0,
  trades: 0,
  wins: 0,
  zScore: 0,
  afterMovePct: 0,
  profitFactor: null,
  skill: 0,
  latency: 0,
  profit: 0,
};

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * The signed move from `priorPrice` to `entryPrice` in basis points; null without a prior price
 * (or with one that is not positive, which no feed stores but which would divide by zero).
 */
export function priorMoveBps(entryPrice: number, priorPrice: number | null): number | null {
  if (priorPrice === null || !(priorPrice > 0)) return null;
  return ((entryPrice - priorPrice) / priorPrice) * 10_000;
}

/** Whether the trade was placed after a large move in its own direction. */
export function followsLargeMove(trade: Pick<ScoredTrade, 'direction' | 'priorMoveBps'>): boolean {
  const move = trade.priorMoveBps;
  if (move === null || Math.abs(move) < LARGE_MOVE_BPS) return false;
  return trade.direction === (move > 0 ? 'UP' : 'DOWN');
}

/** The z-score of the trades' P/L against fair coins at their payouts; 0 when there is no variance. */
export function chanceZScore(trades: readonly ScoredTrade[]): number {
  let excess = 0;
  let variance = 0;
  for (const t of trades) {
    const p = t.payoutPct / 100;
    excess += t.pnlCents - (t.stakeCents * (p - 1)) / 2;
    variance += (t.stakeCents * t.stakeCents * (p + 1) * (p + 1)) / 4;
  }
  return variance > 0 ? excess / Math.sqrt(variance) : 0;
}

function latencyOf(trades: readonly ScoredTrade[]): { afterMovePct: number; latency: number } {
  const followers = trades.filter((t) => followsLargeMove(t));
  if (followers.length === 0) return { afterMovePct: 0, latency: 0 };
  const afterMovePct = (100 * followers.length) / trades.length;
  const wonShare = followers.filter((t) => t.status === 'won').length / followers.length;
  const share = clamp01((afterMovePct - AFTER_MOVE_PCT_FLOOR) / AFTER_MOVE_PCT_SPAN);
  return { afterMovePct, latency: share * clamp01((wonShare - 0.5) / AFTER_MOVE_WIN_SPAN) };
}

function profitOf(trades: readonly ScoredTrade[]): { profitFactor: number | null; profit: number } {
  let grossProfit = 0;
  let grossLoss = 0;
  for (const t of trades) {
    if (t.status === 'won') grossProfit += t.pnlCents;
    else grossLoss -= t.pnlCents;
  }
  const profitFactor = grossLoss > 0 ? grossProfit / grossLoss : null;
  const counted = profitFactor ?? (grossProfit > 0 ? PROFIT_FACTOR_NO_LOSS : 1);
  const shrink = trades.length / (trades.length + PROFIT_SHRINK_TRADES);
  return { profitFactor, profit: clamp01((counted - 1) / PROFIT_FACTOR_SPAN) * shrink };
}

/** The toxicity of one trader's trades (the module comment has the definition). */
export function toxicityOf(trades: readonly ScoredTrade[]): Toxicity {
  if (trades.length === 0) return NO_TRADES;
  const zScore = chanceZScore(trades);
  const skill = clamp01(zScore / SKILL_Z_FULL);
  const { afterMovePct, latency } = latencyOf(trades);
  const { profitFactor, profit } = profitOf(trades);
  const weighted =
    TOXICITY_WEIGHTS.skill * skill + TOXICITY_WEIGHTS.latency * latency + TOXICITY_WEIGHTS.profit * profit;
  return {
    score: Math.min(100, Math.round(100 * weighted)),
    trades: trades.length,
    wins: trades.filter((t) => t.status === 'won').length,
    zScore,
    afterMovePct,
    profitFactor,
    skill,
    latency,
    profit,
  };
}
