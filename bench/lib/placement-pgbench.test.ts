import { describe, expect, it } from 'vitest';
import { parsePgbenchOutput } from './placement-pgbench';

const PGBENCH_15 = `pgbench (15.14 (Debian 15.14-0+deb12u1), server 17.7)
starting vacuum...end.
transaction type: <builtin: TPC-B (sort of)>
scaling factor: 10
query mode: prepared
number of clients: 64
number of threads: 2
maximum number of tries: 1
duration: 10 s
number of transactions actually processed: 7302
number of failed transactions: 0 (0.000%)
latency average = 87.212 ms
initial connection time = 95.120 ms
tps = 733.842710 (without initial connection time)
`;

describe('parsePgbenchOutput', () => {
  it('reads tps, average latency and failures', () => {
    expect(parsePgbenchOutput(PGBENCH_15)).toEqual({
      tps: 733.84271,
      transactions: 7302,
      latencyAverageMs: 87.212,
      failed: 0,
    });
  });

  it('reads the tps of older formats without the connection-time note', () => {
    expect(parsePgbenchOutput('tps = 1200.5 (including connections establishing)\n').tps).toBe(1200.5);
  });

  it('refuses output without a tps line', () => {
    expect(() => parsePgbenchOutput('connection to server failed\n')).toThrow(/no tps line/);
  });
});
