import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import { percentile } from './stats';

/**
 * An open-model load generator: requests are due at fixed wall-clock arrival times whatever the
 * server is doing, and each latency is measured from the time the request was due, not from the
 * time it was actually sent. A closed loop (send, wait, send) slows down with the server and hides
 * the queueing a real crowd of clients would see ("coordinated omission"); this does not.
 */

/** Milliseconds after the start of a step at which arrival `index` (0-based) is due. */
export function arrivalOffsetMs(index: number, ratePerSec: number): number {
  return (index * 1000) / ratePerSec;
}

/** How many arrivals a step of `durationMs` at `ratePerSec` holds. */
export function arrivalCount(ratePerSec: number, durationMs: number): number {
  return Math.max(1, Math.round((ratePerSec * durationMs) / 1000));
}

/** How many arrivals are due `elapsedMs` after the start (arrival 0 is due at once), at most `total`. */
export function arrivalsDue(elapsedMs: number, ratePerSec: number, total: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor((elapsedMs * ratePerSec) / 1000) + 1);
}

/** What one request ended as: `ok`, or a short label for the error (status code, error code). */
export type SendOutcome = 'ok' | string;

export interface StepOptions {
  readonly ratePerSec: number;
  readonly durationMs: number;
  /** Sends arrival `index`; a failure is an outcome other than `ok` (a rejection counts as one too). */
  readonly send: (index: number) => Promise<SendOutcome>;
  /**
   * Most requests outstanding at once. Beyond it an arrival is counted as an error without being
   * sent: the server has fallen seconds behind, and an unbounded backlog would only delay the end
   * of the step and spill into the next one.
   */
  readonly inFlightMax: number;
  /** Longest wait after the last arrival for outstanding requests; those still open count as errors. */
  readonly drainMsMax: number;
  /** Answers slower than this count in `slowPct` (default 25 ms, a bucket bound of the server's histogram). */
  readonly slowMs?: number;
  /** Monotonic time and waiting; tests pass a fake to check the arithmetic without real time. */
  readonly clock?: StepClock;
}

export interface StepClock {
  /** Milliseconds on a monotonic clock. */
  nowMs(): number;
  wait(ms: number): Promise<void>;
}

const realClock: StepClock = {
  nowMs: () => performance.now(),
  // Timers fire no sooner than 1 ms, so at high rates each wake-up sends the few arrivals that fell
  // due meanwhile, a little late; that lateness is in the latencies. Spinning instead would take a
  // core from the server under test.
  wait: (ms) => (ms > 0 ? sleep(ms) : yieldToLoop()),
};

export interface StepResult {
  readonly targetRatePerSec: number;
  readonly arrivals: number;
  readonly ok: number;
  readonly errors: number;
  readonly errorPct: number;
  /** Successful requests per second, over the time from the first arrival to the last answer. */
  readonly achievedRatePerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Share of successful answers slower than `slowMs`, in percent. */
  readonly slowPct: number;
  readonly slowMs: number;
  /** 99th percentile of how late the generator itself sent a request: high means it was the bottleneck. */
  readonly sendLagP99Ms: number;
  /** Error labels and their counts, most frequent first. */
  readonly errorKinds: Readonly<Record<string, number>>;
}

const SKIPPED_BACKLOG = 'backlog';
const SLOW_MS_DEFAULT = 25;
const DRAIN_POLL_MS = 5;
const THREW = 'send threw';
const UNFINISHED = 'unfinished';

/**
 * Runs one step at a fixed arrival rate. Latencies of successful requests are measured from the
 * scheduled arrival time; failed requests are counted, not timed.
 */
export async function runOpenModelStep(options: StepOptions): Promise<StepResult> {
  const { ratePerSec, durationMs, send } = options;
  const clock = options.clock ?? realClock;
  const total = arrivalCount(ratePerSec, durationMs);
  const latenciesMs = new Float64Array(total);
  const sendLagsMs = new Float64Array(total);
  const errorKinds = new Map<string, number>();
  const countError = (kind: string) => errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  let ok = 0;
  let inFlight = 0;
  let lastAnswerAt = 0;
  let next = 0;
  let sent = 0;
  const start = clock.nowMs();

  while (next < total) {
    const due = arrivalsDue(clock.nowMs() - start, ratePerSec, total);
    for (; next < due; next++) {
      const scheduledAt = start + arrivalOffsetMs(next, ratePerSec);
      if (inFlight >= options.inFlightMax) {
        countError(SKIPPED_BACKLOG);
        continue;
      }
      sendLagsMs[sent++] = clock.nowMs() - scheduledAt;
      inFlight++;
      const answered = (outcome: SendOutcome) => {
        inFlight--;
        const answeredAt = clock.nowMs();
        lastAnswerAt = answeredAt;
        if (outcome === 'ok') latenciesMs[ok++] = answeredAt - scheduledAt;
        else countError(outcome);
      };
      send(next).then(answered, () => answered(THREW));
    }
    if (next >= total) break;
    await clock.wait(start + arrivalOffsetMs(next, ratePerSec) - clock.nowMs());
  }

  const drainDeadline = clock.nowMs() + options.drainMsMax;
  while (inFlight > 0 && clock.nowMs() < drainDeadline) await clock.wait(DRAIN_POLL_MS);
  if (inFlight > 0) errorKinds.set(UNFINISHED, (errorKinds.get(UNFINISHED) ?? 0) + inFlight);

  const sorted = latenciesMs.slice(0, ok).sort();
  const lags = sendLagsMs.slice(0, sent).sort();
  const slowMs = options.slowMs ?? SLOW_MS_DEFAULT;
  let slow = 0;
  for (let i = sorted.length - 1; i >= 0 && sorted[i]! > slowMs; i--) slow++;
  const errors = total - ok;
  const spanMs = Math.max(durationMs, lastAnswerAt - start);
  return {
    targetRatePerSec: ratePerSec,
    arrivals: total,
    ok,
    errors,
    errorPct: (errors / total) * 100,
    achievedRatePerSec: (ok * 1000) / spanMs,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    slowPct: ok > 0 ? (slow / ok) * 100 : 0,
    slowMs,
    sendLagP99Ms: percentile(lags, 99),
    errorKinds: Object.fromEntries([...errorKinds].sort((a, b) => b[1] - a[1])),
  };
}
