import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { meterJob, meterJobConnections, onJobRun, registerJobMetrics, type JobRun } from './job-meter';
import { holdBoundMs } from './testing/job-runs';

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
    expect(runs[0]!.loopHoldMsMax).toBeGreaterThanOrEqual(10);
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
    expect(runs[0]!.loopHoldMsMax).toBeGreaterThanOrEqual(10);
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
    expect(runs[0]!.loopHoldMsMax).toBeGreaterThanOrEqual(15);
  });

  it('reports a job of only awaits as holding the loop for next to nothing', async () => {
    const runs = recordRuns();
    let waitedMs = 0;
    await meterJob('idle', async () => {
      const started = performance.now();
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 2));
      waitedMs = performance.now() - started;
    });
    // Against the job's own clock: a timer may fire a fraction of a millisecond before its delay
    // by performance.now() (seen on CI: five 2 ms timers in 9.9 ms).
    expect(runs[0]!.wallMs).toBeGreaterThanOrEqual(waitedMs);
    expect(holdBoundMs(runs[0]!)).toBeLessThan(2);
    // The waits are not a hold: well under the run's 10 ms, with room for a wait for a core.
    expect(runs[0]!.loopHoldMsMax).toBeLessThan(9);
  });

  it('yielding between chunks keeps each hold to one chunk', async () => {
    const runs = recordRuns();
    await meterJob('sliced', async () => {
      for (let i = 0; i < 5; i++) {
        busyMs(5);
        await turn();
      }
    });
    expect(runs[0]!.syncMs).toBeGreaterThanOrEqual(25);
    // One chunk is 5 ms and all five are 25: the bound sits between them, with room for a wait
    // for a core on a busy machine (6.8 ms was read for a 3 ms chunk on CI).
    expect(holdBoundMs(runs[0]!)).toBeLessThan(15);
  });

  it('does not count work of others that runs while the job waits', async () => {
    const runs = recordRuns();
    const job = meterJob('waiting', () => new Promise((resolve) => setTimeout(resolve, 20)));
    setTimeout(() => busyMs(10), 5);
    await job;
    expect(holdBoundMs(runs[0]!)).toBeLessThan(5);
  });

  it('counts the synchronous start and the continuation that follows it at once as one hold', async () => {
    const runs = recordRuns();
    // Started from a timer, as periodic jobs are: Node runs such a callback's ticks before its
    // microtasks, so the meter must not take a tick for the loop turning.
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        void meterJob('start and continue', async () => {
          busyMs(4);
          await Promise.resolve();
          busyMs(4);
        }).then(() => resolve());
      }, 1),
    );
    expect(runs[0]!.loopHoldMsMax).toBeGreaterThanOrEqual(8);
  });

  it('does not count the callback of a promise made outside the job, even when the job settles it', async () => {
    const runs = recordRuns();
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Someone else's continuation: it runs right after the job's slice that settles the gate.
    const others = gate.then(() => busyMs(30));
    await meterJob('settles', async () => {
      await turn();
      open();
      await others;
      await turn();
    });
    // Counted, the other work alone would read 30 ms; the job's own slices are next to nothing,
    // though a slice's wall time also counts a wait for a core (6.2 ms seen with the Node matrix
    // running beside other work).
    expect(runs[0]!.syncMs).toBeLessThan(15);
    expect(holdBoundMs(runs[0]!)).toBeLessThan(15);
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

  it("counts the socket's data callbacks while the run holds its connection, and not after", async () => {
    const stream = new EventEmitter();
    // Someone else's rows cost five times the run's own, so counting them would show whatever a
    // busy machine adds to the run's own time.
    stream.on('data', (rows: string) => busyMs(rows === 'rows' ? 10 : 50));
    const client = { connection: { stream }, release: () => undefined } as unknown as pg.PoolClient;
    const pool = {
      connect: () => {
        client.release = () => undefined;
        return Promise.resolve(client);
      },
    } as unknown as pg.Pool;
    meterJobConnections(pool);
    const runs = recordRuns();
    await meterJob('reads rows', async () => {
      const held = await pool.connect();
      await new Promise((resolve) => setTimeout(resolve, 1));
      // As the socket would, from the loop: the rows arrive while the run waits.
      await new Promise((resolve) => setTimeout(() => resolve(stream.emit('data', 'rows')), 1));
      held.release();
      await new Promise((resolve) => setTimeout(() => resolve(stream.emit('data', 'someone else')), 1));
    });
    expect(runs[0]!.syncMs).toBeGreaterThanOrEqual(10);
    expect(runs[0]!.syncMs).toBeLessThan(50);
    // Released, the socket is as it was: no one else's events go through the meter.
    expect(Object.hasOwn(stream, 'emit')).toBe(false);
  });
});

describe('registerJobMetrics', () => {
  it('turns the runs into the updown_job_* series when scraped', async () => {
    const registry = new Registry();
    const stop = registerJobMetrics(registry);
    try {
      for (let i = 0; i < 2; i++) {
        await meterJob('scraped', async () => {
          await turn();
          busyMs(3);
        });
      }
      const value = async (name: string) =>
        ((await registry.getSingleMetric(name)!.get()).values as { labels: object; value: number }[])
          .filter((entry) => (entry.labels as { task?: string }).task === 'scraped')
          .map((entry) => entry.value);
      expect(await value('updown_job_runs_total')).toEqual([2]);
      expect((await value('updown_job_sync_seconds_total'))[0]).toBeGreaterThanOrEqual(0.006);
      const [holdMax] = await value('updown_job_loop_hold_max_seconds');
      expect(holdMax).toBeGreaterThanOrEqual(0.003);
      // The windowed maximum is read once; the next scrape has no run to report.
      expect(await value('updown_job_loop_hold_max_seconds')).toEqual([]);
      const text = await registry.metrics();
      expect(text).toContain('updown_job_loop_hold_seconds_count{task="scraped"} 2');
      expect(text).toContain('updown_job_connection_hold_seconds_bucket{le="0.001",task="scraped"} 2');
      expect(text).toContain('# TYPE updown_job_loop_hold_seconds histogram');
      // Counters report each run once, however often they are scraped.
      expect(await value('updown_job_runs_total')).toEqual([2]);
    } finally {
      stop();
    }
  });
});
