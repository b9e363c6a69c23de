import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { meterJob, meterJobConnections, onJobRun, type JobRun } from './job-meter';

function busyMs(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Spinning is the point: this is the synchronous work the meter must see.
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

let stopListening: (() => void) | undefined;
function recordRuns(): JobRun[] {
  const runs: JobRun[] = [];
  stopListening = onJobRun((run) => runs.push(run));
  return runs;
}
afterEach(() => stopListening?.());

describe('meterJob', () => {
  it('reports a 10 ms busy loop after an await as a hold of at least 10 ms', async () => {
    const runs = recordRuns();
    await meterJob('busy', async () => {
      await turn();
      busyMs(10);
      await turn();
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.job).toBe('busy');
    expect(runs[0]!.loopHoldMaxMs).toBeGreaterThanOrEqual(10);
    expect(runs[0]!.syncMs).toBeGreaterThanOrEqual(10);
    // Spinning burns CPU. (Not bounded by the wall time: the process's other threads count too.)
    expect(runs[0]!.loopHoldCpuMs).toBeGreaterThan(0);
  });

  it('counts the synchronous start of the task, before its first await', async () => {
    const runs = recordRuns();
    await meterJob('busy start', async () => {
      busyMs(10);
      await turn();
    });
    expect(runs[0]!.loopHoldMaxMs).toBeGreaterThanOrEqual(10);
  });

  it('adds up chained microtasks into one hold, since nothing else can run between them', async () => {
    const runs = recordRuns();
    await meterJob('chunks', async () => {
      await turn();
      for (let i = 0; i < 5; i++) {
        busyMs(3);
        await Promise.resolve();
      }
    });
    expect(runs[0]!.loopHoldMaxMs).toBeGreaterThanOrEqual(15);
  });

  it('reports a job of only awaits as holding the loop for next to nothing', async () => {
    const runs = recordRuns();
    await meterJob('idle', async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    });
    expect(runs[0]!.wallMs).toBeGreaterThanOrEqual(10);
    expect(runs[0]!.loopHoldCpuMs).toBeLessThan(2);
    // The waits are not a hold: well under the run's 10 ms, with room for a wait for a core.
    expect(runs[0]!.loopHoldMaxMs).toBeLessThan(9);
  });

  it('yielding between chunks keeps each hold to one chunk', async () => {
    const runs = recordRuns();
    await meterJob('sliced', async () => {
      for (let i = 0; i < 5; i++) {
        busyMs(3);
        await turn();
      }
    });
    expect(runs[0]!.syncMs).toBeGreaterThanOrEqual(15);
    // CPU, not wall time: on a busy machine a chunk's wall time also counts waits for a core.
    expect(runs[0]!.loopHoldCpuMs).toBeLessThan(6);
  });

  it('does not count work of others that runs while the job waits', async () => {
    const runs = recordRuns();
    const job = meterJob('waiting', () => new Promise((resolve) => setTimeout(resolve, 20)));
    setTimeout(() => busyMs(10), 5);
    await job;
    expect(runs[0]!.loopHoldCpuMs).toBeLessThan(2);
  });

  it('reports a failed run too, and passes its error on', async () => {
    const runs = recordRuns();
    await expect(
      meterJob('fails', async () => {
        await turn();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(runs.map((r) => r.job)).toEqual(['fails']);
  });
});

describe('meterJobConnections', () => {
  function fakePool() {
    const client = { release: () => undefined } as unknown as pg.PoolClient;
    const pool = {
      connect: () => {
        client.release = () => undefined;
        return Promise.resolve(client);
      },
    } as unknown as pg.Pool;
    meterJobConnections(pool);
    return pool;
  }

  it('adds the time a run held a connection, and nothing for connections outside runs', async () => {
    const pool = fakePool();
    const runs = recordRuns();
    await meterJob('holds', async () => {
      const client = await pool.connect();
      await new Promise((resolve) => setTimeout(resolve, 15));
      client.release();
    });
    const outside = await pool.connect();
    await new Promise((resolve) => setTimeout(resolve, 5));
    outside.release();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.connectionHoldMs).toBeGreaterThanOrEqual(14);
    expect(runs[0]!.connectionHoldMs).toBeLessThan(100);
  });
});
