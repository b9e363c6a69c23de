import { describe, expect, it } from 'vitest';
import { PLACEMENT_LIMITS, stepPasses } from './placement-ladder';
import {
  describePgbenchStep,
  runPgbenchTailLadder,
  summarisePgbenchLog,
  type PgbenchRateOptions,
} from './placement-pgbench-tail';

/** A log line as pgbench 15 writes it with `-R`: `time` and `schedule_lag` in microseconds. */
const line = (client: number, tx: number, time: number | string, lagUs: number) =>
  `${client} ${tx} ${time} 0 1795845920 ${571621 + tx} ${lagUs}`;

const STEP = { targetRatePerSec: 100, durationSec: 2, lateMs: 20 };

describe('summarisePgbenchLog', () => {
  it('takes latency from the scheduled start as pgbench logs it, lag already inside', () => {
    // 200 transactions of 1..200 ms/10 (0.1..20 ms), each 3 ms of it spent behind schedule.
    const log = Array.from({ length: 200 }, (_, i) => line(i % 8, i, (i + 1) * 100, 3_000)).join('\n');
    const step = summarisePgbenchLog(log, STEP);
    expect(step.executed).toBe(200);
    expect(step.p50Ms).toBe(10);
    expect(step.p99Ms).toBe(19.8); // not 22.8: the lag is not added twice
    expect(step.maxMs).toBe(20);
    expect(step.scheduleLagP99Ms).toBe(3);
    expect(step.achievedRatePerSec).toBe(100);
    expect(step.errorPct).toBe(0);
    expect(step.latePct).toBe(0);
    expect(stepPasses(step, PLACEMENT_LIMITS)).toBe(true);
  });

  it('counts skipped and failed transactions as errors, and slow ones as late', () => {
    const executed = Array.from({ length: 996 }, (_, i) => line(0, i, i < 981 ? 2_000 : 45_000, 100));
    const log = [
      ...executed,
      line(1, 996, 'skipped', 0),
      line(1, 997, 'skipped', 0),
      line(2, 998, 'failed', 0),
      // Threads' files are joined with blank lines between; pgbench's retries column may follow.
      '',
      `${line(3, 999, 1_500, 20)} 0`,
    ].join('\n');
    const step = summarisePgbenchLog(log, STEP);
    expect(step).toMatchObject({ executed: 997, skipped: 2, failed: 1, maxMs: 45 });
    expect(step.errorPct).toBeCloseTo(0.3, 10);
    expect(step.latePct).toBeCloseTo(1.5, 10);
    expect(step.p99Ms).toBe(45);
    expect(stepPasses(step, PLACEMENT_LIMITS)).toBe(false);
    expect(describePgbenchStep(step)).toBe(
      '100/s: achieved 499/s, p50 2.0 ms, p99 45.0 ms, max 45.0 ms, late (over 20 ms) 1.50%, ' +
        'skipped 2, failed 1 (errors 0.30%), schedule lag p99 0.1 ms',
    );
  });

  it('fails a step that ran nothing, and refuses a line it cannot read', () => {
    const empty = summarisePgbenchLog('', STEP);
    expect(empty.errorPct).toBe(100);
    expect(stepPasses(empty, PLACEMENT_LIMITS)).toBe(false);
    expect(() => summarisePgbenchLog(line(0, 1, 'oops', 0), STEP)).toThrow(/not understood/);
  });
});

describe('runPgbenchTailLadder', () => {
  it("climbs with the headline's plan and rule and reports the best passing step's achieved rate", async () => {
    const asked: PgbenchRateOptions[] = [];
    // A server that runs every scheduled transaction, in 5 ms up to 200/s and in 30 ms beyond.
    const runStep = async (options: PgbenchRateOptions) => {
      asked.push(options);
      const log = Array.from({ length: options.ratePerSec * options.durationSec }, (_, i) =>
        line(0, i, options.ratePerSec <= 200 ? 5_000 : 30_000, 0),
      ).join('\n');
      return { ...summarisePgbenchLog(log, { ...options, targetRatePerSec: options.ratePerSec }) };
    };
    const tail = await runPgbenchTailLadder({
      pgbench: 'pgbench',
      url: 'postgres://x',
      clients: 8,
      threads: 2,
      durationSec: 8,
      plan: { startRatePerSec: 50, factor: 1.5, maxRatePerSec: 12_800, refine: true },
      limits: PLACEMENT_LIMITS,
      log: () => undefined,
      runStep,
    });
    expect(asked.map((o) => o.ratePerSec)).toEqual([50, 75, 113, 170, 255, 208]);
    expect(asked.every((o) => o.lateMs === 20 && o.clients === 8 && o.durationSec === 8)).toBe(true);
    expect(tail.steps.map((s) => s.pass)).toEqual([true, true, true, true, false, false]);
    expect(tail.headlinePerSec).toBe(170);
  });
});
