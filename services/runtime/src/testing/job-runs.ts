import type { JobRun } from '../job-meter';

/**
 * The longest hold of a job run as far as a test can bound it: the wall time of the hold also
 * counts any wait for a core, and its CPU time also counts the process's other threads (the
 * collector's helpers, the optimising compiler), so a 1 ms hold can read several ms of CPU. The
 * hold itself is at most the smaller of the two.
 */
export function holdBoundMs(run: JobRun): number {
  return Math.min(run.loopHoldMsMax, run.loopHoldCpuMs);
}
