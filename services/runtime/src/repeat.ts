import type { Clock } from './clock';
import { meterJob } from './job-meter';
import type { Logger } from './logger';

export interface RepeatOptions<T> {
  readonly clock: Clock;
  /** From the end of one run to the start of the next; the first run is one interval after start. */
  readonly intervalMs: number;
  /**
   * Names the task in the log line of a failed run, and as `job` in the metrics of its runs
   * (`job-meter.ts`: how long each held the event loop and pool connections).
   */
  readonly name: string;
  readonly logger: Logger;
  readonly task: () => Promise<T>;
  /** Sees the result of each run the timer starts (not those of `runNow`). */
  readonly onResult?: (result: T) => void;
}

export interface Repeating<T> {
  /** Runs the task now, or joins the run in progress; the timer keeps its schedule. */
  runNow(): Promise<T>;
  /** Cancels the next run and waits for the one in progress, if any. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs` on the clock, the next run counted from the end of the previous
 * one, so a slow run never overlaps itself (nor a `runNow` in progress: the timer joins it). A
 * failing run is logged and the schedule goes on. Timers go through `clock`, so a test moves a
 * `ManualClock` to fire them.
 */
export function repeatEvery<T>(options: RepeatOptions<T>): Repeating<T> {
  const { clock, intervalMs, name, logger, task } = options;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new RangeError(`${name}: intervalMs must be a positive number, got ${intervalMs}`);
  }
  let cancel: (() => void) | undefined;
  let running: Promise<T> | undefined;
  let stopped = false;

  const runNow = (): Promise<T> => {
    running ??= meterJob(name, task).finally(() => {
      running = undefined;
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    cancel = clock.setTimeout(() => {
      cancel = undefined;
      runNow()
        .then(
          (result) => options.onResult?.(result),
          (error: unknown) => logger.error({ err: error, task: name }, 'periodic task failed'),
        )
        .finally(schedule);
    }, intervalMs);
  };
  schedule();

  return {
    runNow,
    async stop() {
      stopped = true;
      cancel?.();
      cancel = undefined;
      await running?.catch(() => undefined);
    },
  };
}
