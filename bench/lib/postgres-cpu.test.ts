import { describe, expect, it } from 'vitest';
import { classifyPostgresProcess, postgresCpuBetween, type PostgresCpuSnapshot } from './postgres-cpu';

describe('classifyPostgresProcess', () => {
  const harness = new Set([77]);
  const kind = (title: string, pid = 1) => classifyPostgresProcess(title, 'bench_db', pid, harness);

  it('tells backends of the database under test from the rest of the server', () => {
    expect(kind('postgres: postgres bench_db 127.0.0.1(50412) idle')).toBe('backends');
    expect(kind('postgres: postgres bench_db 127.0.0.1(50412) idle', 77)).toBe('harness');
    expect(kind('postgres: postgres other_db 127.0.0.1(50412) INSERT')).toBe('background');
    expect(kind('postgres: walwriter')).toBe('background');
    expect(kind('postgres: checkpointer')).toBe('background');
    expect(kind('postgres: autovacuum worker bench_db')).toBe('autovacuum');
    expect(kind('postgres: autovacuum launcher')).toBe('autovacuum');
  });

  it('reads titles of a server with a cluster name', () => {
    expect(kind('postgres: 15/main: postgres bench_db 127.0.0.1(43936) idle')).toBe('backends');
    expect(kind('postgres: 15/main: walwriter')).toBe('background');
  });
});

function snapshot(
  processes: [number, 'backends' | 'harness' | 'autovacuum' | 'background', number][],
  postmasterTicks: number,
  reapedTicks: number,
): PostgresCpuSnapshot {
  return {
    processes: new Map(processes.map(([pid, kind, ticks]) => [pid, { kind, ticks }])),
    postmasterTicks,
    reapedTicks,
  };
}

describe('postgresCpuBetween', () => {
  it('adds each kind’s growth, new processes in full, and what exited through the postmaster’s reaped time', () => {
    const start = snapshot(
      [
        [10, 'backends', 100],
        [11, 'backends', 50],
        [12, 'background', 30],
        [13, 'harness', 5],
      ],
      7,
      1_000,
    );
    const end = snapshot(
      [
        [10, 'backends', 160], // +60
        [12, 'background', 34], // +4
        [13, 'harness', 9], // +4
        [14, 'backends', 25], // new: +25
      ],
      8, // postmaster +1
      1_070, // pid 11 exited having used 70 in all, 50 of them before the start
    );
    const used = postgresCpuBetween(start, end, 100);
    expect(used.backends).toBeCloseTo(0.85, 10);
    expect(used.harness).toBeCloseTo(0.04, 10);
    expect(used.background).toBeCloseTo(0.05, 10);
    expect(used.exited).toBeCloseTo(0.2, 10);
    expect(used.autovacuum).toBe(0);
    expect(used.total).toBeCloseTo(1.14, 10);
  });

  it('never reports negative time for processes that exited', () => {
    const start = snapshot([[11, 'backends', 50]], 0, 0);
    const end = snapshot([], 0, 49);
    expect(postgresCpuBetween(start, end, 100).exited).toBe(0);
  });
});
