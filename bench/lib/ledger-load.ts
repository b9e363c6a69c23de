import { performance } from 'node:perf_hooks';
import type { StepMeasurement } from './ledger-stats';

/**
 * A closed loop for the ledger benchmark: `concurrency` workers, each running one transaction after
 * another on its own pooled connection. The ledger is called by services, not by a crowd of
 * independent clients, so a fixed number of transactions in flight is the load it actually sees
 * (settlement and placement batches), and a closed loop measures its throughput at that depth.
 */

export interface ClosedLoopOptions {
  readonly concurrency: number;
  /** Run, unmeasured, before the window: connections opened, plans cached, caches warm. */
  readonly warmupMs: number;
  readonly windowMs: number;
  /** Runs one transaction and resolves with the number of transfers it committed. */
  readonly task: () => Promise<number>;
  /** Receives a failure (the loop goes on; a step with failures does not count). */
  readonly onError?: (error: unknown) => void;
}

/** Most latencies one step keeps: far above what a step of a few seconds commits. */
const LATENCIES_MAX = 2_000_000;

/**
 * Counts the transactions that committed inside the window (after the warm-up, before its end):
 * a completion rate, as steady as the loop itself, whatever a transaction's length.
 */
export async function runClosedLoop(options: ClosedLoopOptions): Promise<StepMeasurement> {
  const latenciesMs = new Float64Array(LATENCIES_MAX);
  let committed = 0;
  let transfers = 0;
  let errors = 0;
  const start = performance.now();
  const windowStart = start + options.warmupMs;
  const windowEnd = windowStart + options.windowMs;
  const worker = async () => {
    while (performance.now() < windowEnd) {
      const began = performance.now();
      try {
        const done = await options.task();
        const ended = performance.now();
        if (ended >= windowStart && ended <= windowEnd && committed < LATENCIES_MAX) {
          latenciesMs[committed++] = ended - began;
          transfers += done;
        }
      } catch (error) {
        const ended = performance.now();
        if (ended >= windowStart && ended <= windowEnd) errors++;
        options.onError?.(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    transfers,
    errors,
    windowMs: options.windowMs,
    latenciesMs: latenciesMs.slice(0, committed),
  };
}
