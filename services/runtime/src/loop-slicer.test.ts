import { describe, expect, it } from 'vitest';
import { meterJob, onJobRun, type JobRun } from './job-meter';
import { createLoopSlicer } from './loop-slicer';
import { holdBoundMs } from './testing/job-runs';

function busyMs(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Synchronous work standing for one item of a batch.
  }
}

async function holdOf(work: () => Promise<void>): Promise<JobRun> {
  const runs: JobRun[] = [];
  const stop = onJobRun((run) => runs.push(run));
  try {
    await meterJob('sliced', work);
  } finally {
    stop();
  }
  return runs[0]!;
}

describe('createLoopSlicer', () => {
  it('is not due until its slice has run, and due after', () => {
    const slicer = createLoopSlicer(2);
    expect(slicer.due()).toBe(false);
    busyMs(2);
    expect(slicer.due()).toBe(true);
  });

  it('keeps a 20 ms loop of 0.25 ms items to holds of about one slice, where the loop alone holds it all', async () => {
    const items = 80;
    const whole = await holdOf(async () => {
      await Promise.resolve();
      for (let i = 0; i < items; i++) busyMs(0.25);
    });
    const sliced = await holdOf(async () => {
      const slicer = createLoopSlicer(1);
      for (let i = 0; i < items; i++) {
        busyMs(0.25);
        if (slicer.due()) await slicer.yield();
      }
    });
    expect(whole.loopHoldMsMax).toBeGreaterThanOrEqual(20);
    expect(sliced.syncMs).toBeGreaterThanOrEqual(20);
    expect(holdBoundMs(sliced)).toBeLessThan(3);
  });
});
