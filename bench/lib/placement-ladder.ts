/**
 * The rate ladder of the placement benchmark: start low, multiply the arrival rate while steps
 * pass, and after the first failure try once between the best pass and that failure, so the
 * reported maximum is not off by a whole factor of two.
 */

export interface LadderLimits {
  /** A step passes with p99 at or under this. */
  readonly p99MsMax: number;
  /** ... and strictly fewer errors than this share, in percent. */
  readonly errorPctBelow: number;
}

export const PLACEMENT_LIMITS: LadderLimits = { p99MsMax: 20, errorPctBelow: 0.1 };

export function stepPasses(step: { p99Ms: number; errorPct: number }, limits: LadderLimits): boolean {
  return Number.isFinite(step.p99Ms) && step.p99Ms <= limits.p99MsMax && step.errorPct < limits.errorPctBelow;
}

export interface LadderPlan {
  readonly startRatePerSec: number;
  readonly factor: number;
  readonly maxRatePerSec: number;
  /** Whether to try one rate between the best pass and the first failure. */
  readonly refine: boolean;
}

export interface TriedStep {
  readonly ratePerSec: number;
  readonly pass: boolean;
}

/** A refinement closer than this to either end would not tell anything new. */
const REFINE_GAP_MIN = 1.15;

/** The next rate to try, or undefined when the ladder is done. */
export function nextStepRate(tried: readonly TriedStep[], plan: LadderPlan): number | undefined {
  const last = tried.at(-1);
  if (!last) return plan.startRatePerSec;
  const firstFail = tried.findIndex((s) => !s.pass);
  if (firstFail === -1) {
    const next = Math.round(last.ratePerSec * plan.factor);
    return next <= plan.maxRatePerSec ? next : undefined;
  }
  // Only the step right after the first failure may be the refinement; then the ladder ends.
  if (!plan.refine || firstFail !== tried.length - 1) return undefined;
  const best = bestPassingRate(tried);
  const failed = tried[firstFail]!.ratePerSec;
  if (best === undefined || failed / best < REFINE_GAP_MIN ** 2) return undefined;
  return Math.round(Math.sqrt(best * failed));
}

export function bestPassingRate(tried: readonly TriedStep[]): number | undefined {
  const passing = tried.filter((s) => s.pass).map((s) => s.ratePerSec);
  return passing.length > 0 ? Math.max(...passing) : undefined;
}
