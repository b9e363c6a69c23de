import { performance } from 'node:perf_hooks';
import type { SendOutcome } from './open-model-load';
import { percentile } from './stats';

/**
 * Capacity, as opposed to the tail: the most placements per second the system completes at any
 * latency, found with a closed loop (N requests in flight, each sent as soon as the previous one of
 * its worker answered) over a ladder of N. The open model's headline says what rate keeps p99
 * within 20 ms; this says how far the machine could go if latency did not matter, and at what
 * depth of queue it got there.
 */

export interface CapacityPlan {
  readonly startInFlight: number;
  readonly factor: number;
  readonly maxInFlight: number;
  /** A step must beat the best so far by this factor to count as an improvement. */
  readonly improvementMin: number;
  /** Steps in a row without improvement after which the ladder stops. */
  readonly flatStepsMax: number;
}

export interface CapacityStep {
  readonly inFlight: number;
  readonly completed: number;
  readonly errors: number;
  readonly errorPct: number;
  readonly throughputPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** Steps with at least this share of errors do not count as capacity. */
export const CAPACITY_ERROR_PCT_BELOW = 0.1;

function counts(step: CapacityStep): boolean {
  return step.completed > 0 && step.errorPct < CAPACITY_ERROR_PCT_BELOW;
}

/** The step with the highest throughput among those that count; undefined when none does. */
export function capacityStep(steps: readonly CapacityStep[]): CapacityStep | undefined {
  return steps
    .filter(counts)
    .reduce<CapacityStep | undefined>(
      (best, step) => (!best || step.throughputPerSec > best.throughputPerSec ? step : best),
      undefined,
    );
}

/**
 * The next in-flight count, or undefined when the ladder is done: multiplied by `factor` up to
 * `maxInFlight`, and stopped early once `flatStepsMax` steps in a row have not beaten the best
 * before them by `improvementMin` (more in flight then only lengthens the queue).
 */
export function nextInFlight(steps: readonly CapacityStep[], plan: CapacityPlan): number | undefined {
  const last = steps.at(-1);
  if (!last) return plan.startInFlight;
  let best = 0;
  let flat = 0;
  for (const step of steps) {
    const throughput = counts(step) ? step.throughputPerSec : 0;
    if (throughput >= best * plan.improvementMin && throughput > 0) flat = 0;
    else flat++;
    best = Math.max(best, throughput);
  }
  if (flat >= plan.flatStepsMax) return undefined;
  const next = Math.max(last.inFlight + 1, Math.round(last.inFlight * plan.factor));
  return next <= plan.maxInFlight ? next : undefined;
}

export interface ClosedLoopStepOptions {
  readonly inFlight: number;
  /** Sent but not measured, so connections and the server settle at the new depth first. */
  readonly warmupMs: number;
  readonly windowMs: number;
  readonly send: (index: number) => Promise<SendOutcome>;
  /** Index of the first request, so successive steps keep walking through users and pairs. */
  readonly firstIndex: number;
}

/** Most latencies one step keeps: far above what a step of a few seconds completes. */
const LATENCIES_MAX = 1_000_000;

/**
 * Runs `inFlight` workers back to back for the warm-up and the window; counts the requests that
 * finished inside the window (a completion rate, whatever a request's length). Resolves with the
 * step, the next unused index, and every successful answer of the whole run (warm-up and the last
 * requests finishing after the window included), which is what CPU measured around it paid for.
 */
export async function runClosedLoopStep(
  options: ClosedLoopStepOptions,
): Promise<{ step: CapacityStep; nextIndex: number; answered: number }> {
  const latenciesMs = new Float64Array(LATENCIES_MAX);
  let completed = 0;
  let errors = 0;
  let answered = 0;
  let index = options.firstIndex;
  const start = performance.now();
  const windowStart = start + options.warmupMs;
  const windowEnd = windowStart + options.windowMs;
  const worker = async () => {
    while (performance.now() < windowEnd) {
      const began = performance.now();
      let outcome: SendOutcome;
      try {
        outcome = await options.send(index++);
      } catch {
        outcome = 'send threw';
      }
      const ended = performance.now();
      if (outcome === 'ok') answered++;
      if (ended < windowStart || ended > windowEnd) continue;
      if (outcome !== 'ok') errors++;
      else if (completed < LATENCIES_MAX) latenciesMs[completed++] = ended - began;
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, worker));
  const sorted = latenciesMs.slice(0, completed).sort();
  const total = completed + errors;
  return {
    step: {
      inFlight: options.inFlight,
      completed,
      errors,
      errorPct: total > 0 ? (errors / total) * 100 : 0,
      throughputPerSec: (completed * 1000) / options.windowMs,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    },
    nextIndex: index,
    answered,
  };
}
