import { PdfChecksBusy, PdfQueueFull } from './identity.domain';

/**
 * The PDF inspections one gateway process runs (each opens a PDF with pdf.js in a worker thread),
 * bounded so that a burst from one account cannot hold back another trader's upload:
 *
 * - at most `runningMax` run at once, so uploads never take every core from trading;
 * - an account runs one at a time: however many it sends, it holds one of those slots, so with two
 *   or more another trader's PDF starts at once, and with one it waits for a single inspection;
 * - an account may have `perAccountMax` running or waiting; past that its upload is refused at once
 *   (429), not queued;
 * - at most `waitingMax` wait, all accounts together; past that an upload is refused at once (503).
 *
 * A slot that frees goes to the earliest waiting inspection whose account has none running, so a
 * trader's first PDF never waits behind another account's second. Before these bounds the queue
 * was a plain FIFO without end: one account's 30 PDFs made another trader's single one wait for all
 * of them.
 */

export interface PdfInspectionLimits {
  /** Inspections running at once in this process. */
  readonly runningMax: number;
  /** Inspections waiting for a slot, all accounts together (0: none wait, a busy process refuses). */
  readonly waitingMax: number;
  /** One account's inspections running or waiting. */
  readonly perAccountMax: number;
}

export const PDF_INSPECTION_LIMITS_DEFAULT: PdfInspectionLimits = Object.freeze({
  // Two cores is the smallest machine the product runs on; a third worker would compete with trading.
  runningMax: 2,
  waitingMax: 8,
  // A photo ID and a proof of address sent together.
  perAccountMax: 2,
});

export interface PdfInspectionQueue {
  /**
   * Runs `work` for `account` in its turn and answers what it answers. Refuses at once, without
   * running it, with `PdfChecksBusy` or `PdfQueueFull` when a bound is reached.
   */
  run<T>(account: string, work: () => Promise<T>): Promise<T>;
  /** How many inspections run and wait now. */
  load(): { readonly running: number; readonly waiting: number };
}

/** The assumed length of one inspection before any has finished, for the first `Retry-After`. */
const INSPECTION_MS_PRIOR = 2_000;
/** How much each finished inspection moves the running mean: recent files count most. */
const MEAN_WEIGHT = 0.2;

interface Waiting {
  readonly account: string;
  start(): void;
}

function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer of at least ${min}, got ${value}`);
  }
}

/** `elapsedMs` is a monotonic clock; it only times inspections for the refusals' `Retry-After`. */
export function createPdfInspectionQueue(
  limits: PdfInspectionLimits = PDF_INSPECTION_LIMITS_DEFAULT,
  elapsedMs: () => number = () => performance.now(),
): PdfInspectionQueue {
  assertCount('runningMax', limits.runningMax, 1);
  assertCount('waitingMax', limits.waitingMax, 0);
  assertCount('perAccountMax', limits.perAccountMax, 1);
  const waiting: Waiting[] = [];
  const runningAccounts = new Set<string>();
  /** Running and waiting, by account; an account with none has no entry. */
  const admitted = new Map<string, number>();
  let meanMs = INSPECTION_MS_PRIOR;

  /** Roughly when a slot or a place frees: one inspection, in whole seconds, at least 1. */
  const retryAfterSec = () => Math.max(1, Math.ceil(meanMs / 1000));

  function startNext(): void {
    while (runningAccounts.size < limits.runningMax) {
      const index = waiting.findIndex((job) => !runningAccounts.has(job.account));
      if (index < 0) return;
      waiting.splice(index, 1)[0]!.start();
    }
  }

  function finished(account: string, tookMs: number): void {
    meanMs += (tookMs - meanMs) * MEAN_WEIGHT;
    runningAccounts.delete(account);
    const left = admitted.get(account)! - 1;
    if (left === 0) admitted.delete(account);
    else admitted.set(account, left);
    startNext();
  }

  return {
    run<T>(account: string, work: () => Promise<T>): Promise<T> {
      const mine = admitted.get(account) ?? 0;
      if (mine >= limits.perAccountMax) {
        return Promise.reject(new PdfChecksBusy(retryAfterSec(), limits.perAccountMax));
      }
      // startNext leaves no waiting job that could run, so a new one runs at once exactly when a
      // slot is free and its account runs nothing.
      const runsAtOnce = runningAccounts.size < limits.runningMax && !runningAccounts.has(account);
      if (!runsAtOnce && waiting.length >= limits.waitingMax) {
        return Promise.reject(new PdfQueueFull(retryAfterSec()));
      }
      admitted.set(account, mine + 1);
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          runningAccounts.add(account);
          const startedMs = elapsedMs();
          void (async () => {
            try {
              resolve(await work());
            } catch (error) {
              reject(error);
            } finally {
              finished(account, elapsedMs() - startedMs);
            }
          })();
        };
        waiting.push({ account, start });
        startNext();
      });
    },
    load: () => ({ running: runningAccounts.size, waiting: waiting.length }),
  };
}
