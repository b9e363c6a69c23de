import type { Clock, Logger } from '@updown/runtime';

export interface Repeating {
  /** Cancels the next run and waits for the one in progress, if any. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs` on the clock, the next run counted from the end of the previous
 * one so that a slow run never overlaps itself. A failing run is logged and the schedule goes on.
 */
export function repeatEvery(
  clock: Clock,
  intervalMs: number,
  name: string,
  logger: Logger,
  task: () => Promise<unknown>,
): Repeating {
  let cancel: (() => void) | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    cancel = clock.setTimeout(() => {
      inFlight = task()
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error, task: name }, 'periodic task failed'),
        )
        .finally(() => {
          inFlight = undefined;
          schedule();
        });
    }, intervalMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      cancel?.();
      await inFlight;
    },
  };
}
