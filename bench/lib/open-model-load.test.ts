import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import {
  arrivalCount,
  arrivalOffsetMs,
  arrivalsDue,
  runOpenModelStep,
  type SendOutcome,
  type StepClock,
} from './open-model-load';

/** Time moves only when the generator waits; each wait oversleeps by `lateMs`, like a busy machine. */
function fakeClock(lateMs = 0): StepClock {
  let t = 1_000;
  return {
    nowMs: () => t,
    wait: async (ms) => {
      // Answers already due are read first, as the event loop would before a timer fires.
      await new Promise((resolve) => setImmediate(resolve));
      t += Math.max(ms, 0) + lateMs;
    },
  };
}

describe('arrival schedule', () => {
  it('spaces arrivals evenly at the rate', () => {
    expect(arrivalOffsetMs(0, 200)).toBe(0);
    expect(arrivalOffsetMs(1, 200)).toBe(5);
    expect(arrivalOffsetMs(400, 200)).toBe(2_000);
    expect(arrivalCount(200, 2_000)).toBe(400);
    expect(arrivalCount(3, 100)).toBe(1);
  });

  it('counts arrival 0 as due at once and never more than the total', () => {
    expect(arrivalsDue(-1, 100, 10)).toBe(0);
    expect(arrivalsDue(0, 100, 10)).toBe(1);
    expect(arrivalsDue(9.99, 100, 10)).toBe(1);
    expect(arrivalsDue(10, 100, 10)).toBe(2);
    expect(arrivalsDue(10_000, 100, 10)).toBe(10);
  });
});

describe('runOpenModelStep', () => {
  it('sends every arrival once, without waiting for answers', async () => {
    const sent: number[] = [];
    let outstandingMax = 0;
    let outstanding = 0;
    const pending: Array<() => void> = [];
    const clock = fakeClock();
    const result = await runOpenModelStep({
      ratePerSec: 1_000,
      durationMs: 50,
      inFlightMax: 1_000,
      drainMsMax: 10_000,
      clock,
      send: (index) => {
        sent.push(index);
        outstandingMax = Math.max(outstandingMax, ++outstanding);
        return new Promise<SendOutcome>((resolve) => {
          pending.push(() => {
            outstanding--;
            resolve('ok');
          });
          // Answered only once the whole step has been sent: an open model does not wait.
          if (sent.length === 50) for (const answer of pending) answer();
        });
      },
    });
    expect(sent).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(outstandingMax).toBe(50);
    expect(result).toMatchObject({ arrivals: 50, ok: 50, errors: 0, errorPct: 0 });
  });

  it('measures latency from the scheduled time, so a late generator shows in it', async () => {
    const result = await runOpenModelStep({
      ratePerSec: 100,
      durationMs: 1_000,
      inFlightMax: 1_000,
      drainMsMax: 1_000,
      // Each wait for the next 10 ms slot oversleeps by 25 ms: every send is late.
      clock: fakeClock(25),
      send: async () => 'ok',
    });
    expect(result.ok).toBe(100);
    // Sent in bursts of the arrivals that fell due while oversleeping: each 5 to 35 ms late.
    expect(result.p50Ms).toBeGreaterThanOrEqual(5);
    expect(result.p99Ms).toBeGreaterThanOrEqual(25);
    expect(result.sendLagP99Ms).toBe(result.p99Ms);
    expect(result.slowMs).toBe(25);
    const over = async (slowMs: number) =>
      (
        await runOpenModelStep({
          ratePerSec: 100,
          durationMs: 1_000,
          inFlightMax: 1_000,
          drainMsMax: 1_000,
          clock: fakeClock(25),
          send: async () => 'ok',
          slowMs,
        })
      ).slowPct;
    // Every answer but the first (sent at once) is at least 5 ms late, some more than 15 ms, none
    // more than 40 ms.
    expect(await over(1)).toBe(99);
    const some = await over(15);
    expect(some).toBeGreaterThan(0);
    expect(some).toBeLessThan(100);
    expect(await over(40)).toBe(0);
  });

  it('reports zero latency for answers in the same instant when the generator keeps time', async () => {
    const result = await runOpenModelStep({
      ratePerSec: 100,
      durationMs: 200,
      inFlightMax: 100,
      drainMsMax: 100,
      clock: fakeClock(0),
      send: async () => 'ok',
    });
    expect(result).toMatchObject({ arrivals: 20, ok: 20, p50Ms: 0, p99Ms: 0, sendLagP99Ms: 0, slowPct: 0 });
  });

  it('counts failures by kind, backlog beyond the cap, and answers that never came', async () => {
    const clock = fakeClock();
    const result = await runOpenModelStep({
      ratePerSec: 100,
      durationMs: 100,
      inFlightMax: 3,
      drainMsMax: 50,
      clock,
      send: (index) => {
        if (index === 0) return Promise.resolve('http 503');
        if (index === 1) return Promise.reject(new Error('boom'));
        return new Promise<SendOutcome>(() => undefined);
      },
    });
    expect(result.arrivals).toBe(10);
    expect(result.ok).toBe(0);
    expect(result.errors).toBe(10);
    expect(result.errorPct).toBe(100);
    expect(result.errorKinds).toEqual({ backlog: 5, unfinished: 3, 'http 503': 1, 'send threw': 1 });
    expect(result.p99Ms).toBeNaN();
  });
});
