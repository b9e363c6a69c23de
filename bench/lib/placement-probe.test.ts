import { describe, expect, it } from 'vitest';
import { describeJobsAndSlow, processReadingBetween } from './placement-probe';
import {
  cpuPerPlacement,
  describeCpu,
  describeDatabaseWork,
  describeIdle,
  describeStalls,
} from './placement-report';
import { parsePromText } from './prom-text';

const place = 'method="POST",route="/api/trades/place"';
const START = parsePromText(`
updown_gc_pause_seconds_total{kind="minor"} 0.5
updown_gc_pause_seconds_total{kind="major"} 0.1
updown_db_pool_checkout_wait_seconds_count 100
updown_db_pool_checkout_wait_seconds_sum 0.05
updown_db_pool_checkout_wait_seconds_bucket{le="0.005"} 99
updown_http_request_duration_seconds_count{${place},status_code="201"} 1000
updown_http_request_duration_seconds_bucket{le="0.025",${place},status_code="201"} 990
`);
const END = parsePromText(`
updown_event_loop_delay_seconds{quantile="0.99"} 0.012
updown_event_loop_delay_seconds{quantile="1"} 0.041
updown_gc_pause_seconds_total{kind="minor"} 0.52
updown_gc_pause_seconds_total{kind="major"} 0.135
updown_gc_pause_max_seconds 0.03
updown_db_pool_checkout_wait_seconds_count 300
updown_db_pool_checkout_wait_seconds_sum 0.45
updown_db_pool_checkout_wait_seconds_bucket{le="0.005"} 280
updown_http_request_duration_seconds_count{${place},status_code="201"} 1190
updown_http_request_duration_seconds_count{${place},status_code="409"} 10
updown_http_request_duration_seconds_bucket{le="0.025",${place},status_code="201"} 1170
updown_http_request_duration_seconds_bucket{le="0.025",${place},status_code="409"} 10
`);

describe('processReadingBetween', () => {
  const reading = processReadingBetween(
    { cpuSeconds: 10, metrics: START },
    { cpuSeconds: 12.5, metrics: END },
  );

  it('takes windowed gauges from the end scrape and counters as differences', () => {
    expect(reading.cpuSeconds).toBe(2.5);
    expect(reading.loopP99Ms).toBeCloseTo(12, 10);
    expect(reading.loopMsMax).toBeCloseTo(41, 10);
    expect(reading.gcByKindMs.minor).toBeCloseTo(20, 6);
    expect(reading.gcByKindMs.major).toBeCloseTo(35, 6);
    expect(reading.gcPauseMs).toBeCloseTo(55, 6);
    expect(reading.gcPauseMsMax).toBeCloseTo(30, 10);
  });

  it('reads pool waits and the server-side share of slow placements over the window', () => {
    expect(reading.poolCheckouts).toBe(200);
    expect(reading.poolWaitMeanMs).toBeCloseTo(2, 10);
    expect(reading.poolWaitsOver5ms).toBe(19);
    expect(reading.placementsServed).toBe(200);
    expect(reading.placementsServedOver25ms).toBe(10);
  });

  it('turns a reading into CPU per placement and one line of stalls', () => {
    const probe = {
      wallSeconds: 5,
      processes: { platform: reading },
      platformCpuSeconds: 2.5,
      generatorCpuSeconds: 0.5,
      postgres: { backends: 1, harness: 0.1, autovacuum: 0, background: 0.2, exited: 0, total: 1.3 },
      activity: undefined,
      database: { writeTransactions: 2_500, walBytes: 3_000_000 },
    };
    const cpu = cpuPerPlacement(probe, 1_000);
    expect(cpu).toMatchObject({
      platformUs: 2_500,
      postgresUs: 1_200,
      postgresBackendsUs: 1_000,
      generatorUs: 500,
      platformCorePct: 50,
      postgresCorePct: 24,
      generatorCorePct: 10,
    });
    expect(describeCpu(cpu)).toMatch(
      /^CPU per placement: platform 2500 µs = 50% of a core; PostgreSQL 1200 µs/,
    );
    // Idle, the platform burns 0.1 s and PostgreSQL 0.05 s a second: 0.5 s and 0.25 s of these 5 s.
    const idle = {
      ...probe,
      wallSeconds: 2,
      processes: { platform: { ...reading, cpuSeconds: 0.2 } },
      platformCpuSeconds: 0.2,
      postgres: { backends: 0.1, harness: 0.2, autovacuum: 0, background: 0, exited: 0, total: 0.3 },
    };
    expect(cpuPerPlacement(probe, 1_000, idle).netOfIdle).toEqual({ platformUs: 2_000, postgresUs: 950 });
    expect(describeDatabaseWork(probe, 1_000)).toBe(
      'PostgreSQL per placement 2.50 write transactions, 3000 B of WAL',
    );
    expect(describeIdle(idle)).toBe('idle for 2.0 s: platform 10%, PostgreSQL 5% of a core');
    expect(describeStalls(probe)).toBe(
      'platform: loop p99 12.0 ms max 41.0 ms, GC 55.0 ms (minor 20, major 35; longest 30.0 ms), ' +
        'pool waits mean 2.00 ms, 19 over 5 ms, server-side over 25 ms 5.00%' +
        '; no job ran; no placement over 20 ms in the order service',
    );
  });
});

describe('jobs and slow placements in the window', () => {
  const start = parsePromText(`
updown_job_runs_total{task="tick retention"} 3
updown_job_loop_hold_seconds_bucket{task="tick retention",le="0.002"} 3
updown_job_loop_hold_seconds_bucket{task="tick retention",le="0.05"} 3
updown_job_loop_hold_seconds_bucket{task="tick retention",le="+Inf"} 3
updown_job_connection_hold_seconds_sum{task="tick retention"} 0.3
updown_job_runs_total{task="pairs poll"} 10
updown_placement_slow_total 5
updown_placement_slow_phase_seconds_total{phase="queued"} 0.1
updown_placement_slow_phase_seconds_total{phase="commit"} 0.05
`);
  const end = parsePromText(`
updown_job_runs_total{task="tick retention"} 5
updown_job_loop_hold_seconds_bucket{task="tick retention",le="0.002"} 4
updown_job_loop_hold_seconds_bucket{task="tick retention",le="0.05"} 5
updown_job_loop_hold_seconds_bucket{task="tick retention",le="+Inf"} 5
updown_job_loop_hold_max_seconds{task="tick retention"} 0.031
updown_job_loop_hold_cpu_max_seconds{task="tick retention"} 0.012
updown_job_connection_hold_seconds_sum{task="tick retention"} 0.5
updown_job_runs_total{task="pairs poll"} 10
updown_placement_slow_total 9
updown_placement_slow_phase_seconds_total{phase="queued"} 0.18
updown_placement_slow_phase_seconds_total{phase="commit"} 0.07
`);
  const reading = processReadingBetween({ cpuSeconds: 0, metrics: start }, { cpuSeconds: 1, metrics: end });

  it("reads each job's runs, longest hold, p99 bucket and connection hold over the window, leaving out jobs that did not run", () => {
    expect(Object.keys(reading.jobs)).toEqual(['tick retention']);
    const job = reading.jobs['tick retention']!;
    expect(job.runs).toBe(2);
    expect(job.loopHoldMsMax).toBeCloseTo(31, 9);
    expect(job.loopHoldCpuMs).toBeCloseTo(12, 9);
    // One of the window's two runs was over 2 ms: its p99 lies in the 50 ms bucket.
    expect(job.loopHoldP99Ms).toBe(50);
    expect(job.loopHoldMaxBoundMs).toBe(50);
    expect(job.connectionHoldMs).toBeCloseTo(200, 9);
  });

  it("averages the window's slow placements' phases", () => {
    expect(reading.slowPlacements.count).toBe(4);
    expect(reading.slowPlacements.meanPhaseMs.queued).toBeCloseTo(20, 9);
    expect(reading.slowPlacements.meanPhaseMs.commit).toBeCloseTo(5, 9);
    expect(describeJobsAndSlow(reading)).toBe(
      '; jobs: tick retention 2× hold max 31 (cpu 12) p99≤50 ms conn 200 ms; 4 slow placements (>20 ms in the order service), mean ms: queued 20, commit 5.0',
    );
  });
});

describe('a job whose windowed maximum another scraper read', () => {
  it('falls back to the bucket bound every run stayed within', () => {
    const start = parsePromText(`
updown_job_runs_total{task="tick flush"} 10
updown_job_loop_hold_seconds_bucket{task="tick flush",le="0.001"} 10
updown_job_loop_hold_seconds_bucket{task="tick flush",le="0.005"} 10
updown_job_loop_hold_seconds_bucket{task="tick flush",le="+Inf"} 10
`);
    const end = parsePromText(`
updown_job_runs_total{task="tick flush"} 13
updown_job_loop_hold_seconds_bucket{task="tick flush",le="0.001"} 12
updown_job_loop_hold_seconds_bucket{task="tick flush",le="0.005"} 13
updown_job_loop_hold_seconds_bucket{task="tick flush",le="+Inf"} 13
`);
    const reading = processReadingBetween({ cpuSeconds: 0, metrics: start }, { cpuSeconds: 1, metrics: end });
    expect(reading.jobs['tick flush']!.loopHoldMsMax).toBe(0);
    expect(describeJobsAndSlow(reading)).toContain('tick flush 3× hold max ≤5.0 p99≤5.0 ms');
  });
});
