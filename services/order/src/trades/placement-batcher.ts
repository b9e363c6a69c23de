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

/**
 * When the batch now running sent its commit and had it acknowledged (`now()` readings), set by
 * `run`: the batcher reads them to split each request's time into phases. One object per batcher,
 * reset before each batch, since batches run one at a time.
 */
export interface BatchMarks {
  commitSentMs: number;
  commitAckMs: number;
}

/**
 * Where one request's time went, milliseconds on `now()`: `queuedMs` from its arrival to its
 * batch's start, of which `behindCommitMs` was spent while the batch before it was committing;
 * `statementsMs` from the batch's start to its commit being sent; `commitMs` until the commit was
 * acknowledged; `answerMs` from then until its answer was handed back. Plain numbers, so timing
 * costs no allocation per request.
 */
export type PhasesListener = (
  queuedMs: number,
  statementsMs: number,
  commitMs: number,
  answerMs: number,
  behindCommitMs: number,
) => void;

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
  readonly run: (requests: readonly Request[], marks: BatchMarks) => Promise<Settled<Result>[]>;
  /**
   * True when the batch may have been written despite `error` (it failed in its commit): running
   * its requests again could place them twice, so they all fail with the error instead.
   */
  readonly outcomeUnknown?: (error: unknown) => boolean;
  /** Told each batch's size as it starts (a metric; must not throw). */
  readonly onBatch?: (size: number) => void;
  /** Told when a failed batch falls back to one request at a time (a log line; must not throw). */
  readonly onFallback?: (size: number, error: unknown) => void;
  /**
   * Told each answered request's phases (metrics; must not throw). Requests of a batch that failed
   * as a whole are not timed: their time went to the failure, not to placing them.
   */
  readonly onPhases?: PhasesListener;
  /** The monotonic clock of the phases (default `performance.now`); tests pass a fake one. */
  readonly now?: () => number;
}

interface Waiting<Request, Result> {
  readonly request: Request;
  readonly arrivedMs: number;
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
  const now = options.now ?? (() => performance.now());
  const marks: BatchMarks = { commitSentMs: Number.NaN, commitAckMs: Number.NaN };
  // The commit of the batch before the running one: a request that arrived during it waited on it.
  let previousCommitSentMs = Number.NaN;
  let previousCommitAckMs = Number.NaN;

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
    const startedMs = now();
    marks.commitSentMs = Number.NaN;
    marks.commitAckMs = Number.NaN;
    try {
      outcomes = await options.run(
        batch.map((w) => w.request),
        marks,
      );
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
    const answeredMs = now();
    // A run that never committed (nothing to write) sent its "commit" when it returned.
    const sentMs = Number.isNaN(marks.commitSentMs) ? answeredMs : marks.commitSentMs;
    const ackMs = Number.isNaN(marks.commitAckMs) ? sentMs : marks.commitAckMs;
    for (let i = 0; i < batch.length; i++) {
      const waiting = batch[i]!;
      const outcome = outcomes[i]!;
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
      options.onPhases?.(
        startedMs - waiting.arrivedMs,
        sentMs - startedMs,
        ackMs - sentMs,
        answeredMs - ackMs,
        overlapMs(waiting.arrivedMs, startedMs, previousCommitSentMs, previousCommitAckMs),
      );
    }
    previousCommitSentMs = sentMs;
    previousCommitAckMs = ackMs;
  }

  return (request) =>
    new Promise<Result>((resolve, reject) => {
      if (queue.length >= queueMax) {
        reject(options.queueFull?.() ?? new Error(`${queueMax} requests are already waiting`));
        return;
      }
      queue.push({ request, arrivedMs: now(), resolve, reject });
      if (draining) return;
      draining = true;
      // A microtask, not a timer: callers in this same synchronous turn join the batch, and a lone
      // request starts before anything else the event loop has waiting.
      queueMicrotask(() => void drain());
    });
}

/** How much of [fromMs, toMs] fell within [startMs, endMs] (0 when they do not meet or are unknown). */
function overlapMs(fromMs: number, toMs: number, startMs: number, endMs: number): number {
  const overlap = Math.min(toMs, endMs) - Math.max(fromMs, startMs);
  return overlap > 0 ? overlap : 0;
}
