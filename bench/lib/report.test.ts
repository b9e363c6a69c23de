import { describe, expect, it } from 'vitest';
import { markdownTable } from './report';
import type { BenchResult } from './types';

const row = (extra: Partial<BenchResult>): BenchResult => ({
  name: 'placement',
  value: 600,
  unit: 'placements/s',
  goal: '>= 5000 placements/s',
  reference_name: 'pgbench TPC-B tps',
  reference_value: 1500,
  ratio: 0.4,
  pass: false,
  setup: { clients: 64 },
  ...extra,
});

const table = (benchmarks: BenchResult[]) =>
  markdownTable({
    machine: { cpus: 2, cpuModel: 'x', memoryGiB: 4, node: '20', postgres: '15' },
    startedAt: 't',
    benchmarks,
  });

describe('markdownTable', () => {
  it('prints a second ratio beside the first, with its goal', () => {
    const text = table([row({ second_ratio: { name: 'to pgbench tail', value: 0.75, goal_min: 0.5 } })]);
    expect(text).toContain(
      '| placement | 600 placements/s | >= 5000 placements/s | pgbench TPC-B tps: 1,500 | 0.40 (to pgbench tail: 0.75, goal >= 0.5) | no |',
    );
    expect(text).toContain('- **placement**: clients 64');
  });

  it('prints the ratio alone without a second one, and a dash for an unknown second ratio', () => {
    expect(table([row({})])).toContain('| 0.40 | no |');
    expect(table([row({ second_ratio: { name: 'to pgbench tail', value: null, goal_min: 0.5 } })])).toContain(
      '| 0.40 (to pgbench tail: —, goal >= 0.5) | no |',
    );
  });
});
