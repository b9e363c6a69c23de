/**
 * Group commit: requests queue, and whenever no batch is in flight the queue drains at once into
 * one batch (at most `batchMax` requests, in arrival order). A request that arrives alone starts
 * its batch of one in the same turn of the event loop, waiting for nothing; requests that arrive
 * while a batch is committing wait only for that commit, and then go together. There is no linger
 * timer: the batch grows with the load, by itself.
 */

/** What one request of a batch came to: its answer, or the error it alone is refused with. */
export type Settled<Result> =
  { readonly ok: true; readonly value: Result } | { readonly ok: false; readonly error: unknown };

export interface BatcherOptions<Request, Result> {
  /** Most requests in one batch; the rest wait for the next. */
  readonly batchMax: number;
  /**
   * Most requests waiting for a batch (default: no bound). A request that finds the queue full is
   * refused at once with `queueFull()`, without being run: under overload a fast refusal the caller
   * may retry beats an answer that comes after its deadline.
   */
  readonly queueMax?: number;
  /** The error a request is refused with when the queue is full. */
  readonly queueFull?: () => unknown;
  /**
   * Runs one batch: one outcome per request, in order. Throws when the batch as a whole failed
   * (a deadlock, a lost connection, a bug); its requests are then run again one at a time, so the
   * one that failed it fails alone, unless `outcomeUnknown` says the batch may have been written.
   */
  readonly run: (requests: readonly Request[]) => Promise<Settled<Result>[]>;
  /**
   * True when the batch may have been written despite `error` (it failed in its commit): running
   * its requests again could place them twice, so they all fail with the error instead.
   */
  readonly outcomeUnknown?: (error: unknown) => boolean;
  /** Told each batch's size as it starts (a metric; must not throw). */
  readonly onBatch?: (size: number) => void;
  /** Told when a failed batch falls back to one request at a time (a log line; must not throw). */
  readonly onFallback?: (size: number, error: unknown) => void;
}

interface Waiting<Request, Result> {
  readonly request: Request;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export function createBatcher<Request, Result>(
  options: BatcherOptions<Request, Result>,
): (request: Request) => Promise<Result> {
  if (!Number.isSafeInteger(options.batchMax) || options.batchMax < 1) {
    throw new RangeError(`batchMax must be a positive integer, got ${options.batchMax}`);
  }
  const queueMax = options.queueMax ?? Number.POSITIVE_INFINITY;
  if (!(queueMax === Number.POSITIVE_INFINITY || (Number.isSafeInteger(queueMax) && queueMax >= 1))) {
    throw new RangeError(`queueMax must be a positive integer, got ${queueMax}`);
  }
  const queue: Waiting<Request, Result>[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, options.batchMax);
        try {
          options.onBatch?.(batch.length);
          await runBatch(batch);
        } catch (error) {
          // Only a throwing hook gets here; no request may be left without an answer.
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      draining = false;
    }
  }

  async function runBatch(batch: readonly Waiting<Request, Result>[]): Promise<void> {
    let outcomes: Settled<Result>[];
    try {
      outcomes = await options.run(batch.map((w) => w.request));
    } catch (error) {
      if (batch.length === 1 || options.outcomeUnknown?.(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      // One request may be what failed the batch: each alone, in arrival order, so it fails by itself.
      options.onFallback?.(batch.length, error);
      for (const waiting of batch) await runBatch([waiting]);
      return;
    }
    if (outcomes.length !== batch.length) {
      const error = new Error(`a batch of ${batch.length} came back with ${outcomes.length} outcomes`);
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }

  return (request) =>
    new Promise<Result>((resolve, reject) => {
      if (queue.length >= queueMax) {
        reject(options.queueFull?.() ?? new Error(`${queueMax} requests are already waiting`));
        return;
      }
      queue.push({ request, resolve, reject });
      if (draining) return;
      draining = true;
      // A microtask, not a timer: callers in this same synchronous turn join the batch, and a lone
      // request starts before anything else the event loop has waiting.
      queueMicrotask(() => void drain());
    });
}
