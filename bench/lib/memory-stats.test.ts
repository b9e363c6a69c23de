import { describe, expect, it } from 'vitest';
import { median, parseVmRssMb, slopeMbPerMin, soakVerdict, type RssSample } from './memory-stats';

const RULE = { windowMs: 120_000, growthFractionMax: 0.05, slopeMbPerMinMax: 0.5 };

/** One sample every 10 s for ten minutes, RSS from `rssAt(minutes)`. */
function series(rssAt: (minutes: number) => number): RssSample[] {
  return Array.from({ length: 61 }, (_, i) => ({ atMs: i * 10_000, rssMb: rssAt(i / 6) }));
}

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('slopeMbPerMin', () => {
  it('fits a straight line through the samples', () => {
    expect(slopeMbPerMin(series((m) => 200 + 2 * m))).toBeCloseTo(2, 6);
    expect(slopeMbPerMin(series(() => 200))).toBeCloseTo(0, 6);
  });

  it('is NaN without two distinct times', () => {
    expect(slopeMbPerMin([{ atMs: 0, rssMb: 1 }])).toBeNaN();
    expect(
      slopeMbPerMin([
        { atMs: 5, rssMb: 1 },
        { atMs: 5, rssMb: 2 },
      ]),
    ).toBeNaN();
  });
});

describe('soakVerdict', () => {
  it('passes a flat series with noise', () => {
    const verdict = soakVerdict(
      series((m) => 200 + (Math.round(m * 6) % 3) - 1),
      RULE,
    );
    expect(verdict.pass).toBe(true);
    expect(Math.abs(verdict.growthMb)).toBeLessThanOrEqual(1);
  });

  it('fails a steady leak', () => {
    // 2 MB a minute: 20 MB over the run, 10% of the start, and still climbing at the end.
    const verdict = soakVerdict(
      series((m) => 200 + 2 * m),
      RULE,
    );
    expect(verdict.growthMb).toBeGreaterThan(10);
    expect(verdict.tailSlopeMbPerMin).toBeCloseTo(2, 6);
    expect(verdict.pass).toBe(false);
  });

  it('passes growth that stops once caches are full', () => {
    // +30 MB over the first three minutes, flat afterwards.
    const verdict = soakVerdict(
      series((m) => 200 + 10 * Math.min(m, 3)),
      RULE,
    );
    expect(verdict.growthFraction).toBeGreaterThan(0.05);
    expect(verdict.tailSlopeMbPerMin).toBeCloseTo(0, 6);
    expect(verdict.pass).toBe(true);
  });

  it('compares the medians of the first and last windows', () => {
    const verdict = soakVerdict(
      series((m) => (m <= 2 ? 100 : m >= 8 ? 104 : 102)),
      RULE,
    );
    expect(verdict.startMb).toBe(100);
    expect(verdict.endMb).toBe(104);
    expect(verdict.growthMb).toBe(4);
    expect(verdict.pass).toBe(true);
  });
});

describe('parseVmRssMb', () => {
  it('reads VmRSS from /proc/<pid>/status in MB', () => {
    const status = 'Name:\tnode\nVmPeak:\t 1000 kB\nVmRSS:\t   204800 kB\nRssAnon:\t 100 kB\n';
    expect(parseVmRssMb(status)).toBe(200);
    expect(parseVmRssMb('Name:\tkthreadd\n')).toBeNull();
  });
});
