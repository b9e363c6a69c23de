import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from './clock';
import type { Logger } from './logger';
import { repeatEvery } from './repeat';

const INTERVAL_MS = 1_000;

function recordingLogger() {
  const errors: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  const logger = {
    error: (fields: Record<string, unknown>, msg: string) => void errors.push({ fields, msg }),
  } as unknown as Logger;
  return { logger, errors };
}

/** Lets settled promises run their callbacks (the timer's run and its rescheduling). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A task whose runs finish only when the test says so. */
function gatedTask() {
  const finishes: Array<() => void> = [];
  let started = 0;
  const task = vi.fn(() => {
    started += 1;
    return new Promise<number>((resolve) => finishes.push(() => resolve(started)));
  });
  return { task, finish: () => finishes.shift()?.(), started: () => started };
}

describe('repeatEvery', () => {
  it('first runs one interval after start, then one interval after each run ends', async () => {
    const clock = new ManualClock(0);
    const { logger } = recordingLogger();
    const runs: number[] = [];
    const repeating = repeatEvery({
      clock,
      intervalMs: INTERVAL_MS,
      name: 'count',
      logger,
      task: async () => void runs.push(clock.nowMs()),
    });
    clock.advance(INTERVAL_MS - 1);
    expect(runs).toEqual([]);
    clock.advance(1);
    await settle();
    clock.advance(INTERVAL_MS);
    await settle();
    expect(runs).toEqual([INTERVAL_MS, 2 * INTERVAL_MS]);
    await repeating.stop();
  });

  it('never overlaps a slow run: the next is counted from its end', async () => {
    const clock = new ManualClock(0);
    const { logger } = recordingLogger();
    const gate = gatedTask();
    const repeating = repeatEvery({ clock, intervalMs: INTERVAL_MS, name: 'slow', logger, task: gate.task });
    clock.advance(INTERVAL_MS);
    expect(gate.started()).toBe(1);
    // Ten intervals pass while the first run is still going: no second run starts.
    clock.advance(10 * INTERVAL_MS);
    await settle();
    expect(gate.started()).toBe(1);
    gate.finish();
    await settle();
    clock.advance(INTERVAL_MS - 1);
    expect(gate.started()).toBe(1);
    clock.advance(1);
    expect(gate.started()).toBe(2);
    gate.finish();
    await repeating.stop();
  });

  it('runNow joins the run in progress, and the timer joins a runNow in progress', async () => {
    const clock = new ManualClock(0);
    const { logger } = recordingLogger();
    const gate = gatedTask();
    const results: number[] = [];
    const repeating = repeatEvery({
      clock,
      intervalMs: INTERVAL_MS,
      name: 'joined',
      logger,
      task: gate.task,
      onResult: (result) => void results.push(result),
    });
    const first = repeating.runNow();
    const second = repeating.runNow();
    clock.advance(INTERVAL_MS);
    expect(gate.started()).toBe(1);
    gate.finish();
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    await settle();
    // The timer's run was the manual one; its result is seen once.
    expect(results).toEqual([1]);
    await repeating.stop();
  });

  it('stop cancels the next run and waits for the one in progress', async () => {
    const clock = new ManualClock(0);
    const { logger } = recordingLogger();
    const gate = gatedTask();
    const repeating = repeatEvery({
      clock,
      intervalMs: INTERVAL_MS,
      name: 'stopped',
      logger,
      task: gate.task,
    });
    clock.advance(INTERVAL_MS);
    let stopped = false;
    const stopping = repeating.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    gate.finish();
    await stopping;
    expect(stopped).toBe(true);
    clock.advance(10 * INTERVAL_MS);
    await settle();
    expect(gate.started()).toBe(1);
  });

  it('logs a failed run with the task name and still schedules the next', async () => {
    const clock = new ManualClock(0);
    const { logger, errors } = recordingLogger();
    let calls = 0;
    const failure = new Error('database went away');
    const repeating = repeatEvery({
      clock,
      intervalMs: INTERVAL_MS,
      name: 'flaky',
      logger,
      task: async () => {
        calls += 1;
        if (calls === 1) throw failure;
      },
    });
    clock.advance(INTERVAL_MS);
    await settle();
    expect(errors).toEqual([{ fields: { err: failure, task: 'flaky' }, msg: 'periodic task failed' }]);
    clock.advance(INTERVAL_MS);
    await settle();
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
    await repeating.stop();
  });

  it('stop resolves when the run in progress fails', async () => {
    const clock = new ManualClock(0);
    const { logger } = recordingLogger();
    let fail!: (error: Error) => void;
    const repeating = repeatEvery({
      clock,
      intervalMs: INTERVAL_MS,
      name: 'failing',
      logger,
      task: () => new Promise<void>((_, reject) => (fail = reject)),
    });
    clock.advance(INTERVAL_MS);
    const stopping = repeating.stop();
    fail(new Error('boom'));
    await expect(stopping).resolves.toBeUndefined();
  });

  it('refuses an interval that is not a positive number', () => {
    const { logger } = recordingLogger();
    for (const intervalMs of [0, -1, Number.NaN]) {
      expect(() =>
        repeatEvery({ clock: new ManualClock(0), intervalMs, name: 'bad', logger, task: async () => 0 }),
      ).toThrow(RangeError);
    }
  });
});

describe('repeatEvery metering', () => {
  it('reports each run under its name, with the time it held the event loop', async () => {
    const { onJobRun } = await import('./job-meter');
    const clock = new ManualClock(0);
    const { logger } = recordingLogger();
    const runs: Array<{ job: string; loopHoldMsMax: number }> = [];
    const stop = onJobRun((run) => runs.push(run));
    const repeating = repeatEvery({
      clock,
      intervalMs: INTERVAL_MS,
      name: 'spin',
      logger,
      task: async () => {
        const until = performance.now() + 5;
        while (performance.now() < until) {
          // Synchronous work the meter must attribute to the job.
        }
      },
    });
    clock.advance(INTERVAL_MS);
    await settle();
    await repeating.stop();
    stop();
    expect(runs.map((r) => r.job)).toEqual(['spin']);
    expect(runs[0]!.loopHoldMsMax).toBeGreaterThanOrEqual(5);
  });
});
