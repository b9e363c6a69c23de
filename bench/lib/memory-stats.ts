/**
 * The arithmetic of the memory benchmarks, kept pure so it can be tested: medians of RSS samples,
 * the least-squares slope of a series, and the soak's verdict.
 */

export interface RssSample {
  /** Milliseconds since the start of the series. */
  readonly atMs: number;
  readonly rssMb: number;
}

/** The median of the values (mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Ordinary least-squares slope of RSS against time, in MB per minute; NaN for fewer than 2 times. */
export function slopeMbPerMin(samples: readonly RssSample[]): number {
  const n = samples.length;
  if (n < 2) return Number.NaN;
  const meanT = samples.reduce((sum, s) => sum + s.atMs, 0) / n;
  const meanY = samples.reduce((sum, s) => sum + s.rssMb, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    covariance += (s.atMs - meanT) * (s.rssMb - meanY);
    variance += (s.atMs - meanT) ** 2;
  }
  if (variance === 0) return Number.NaN;
  return (covariance / variance) * 60_000;
}

export interface SoakRule {
  /** Length of the window at each end of the series whose medians are compared. */
  readonly windowMs: number;
  /** Growth allowed between the two windows, as a fraction of the first one's median. */
  readonly growthFractionMax: number;
  /** Trend allowed over the second half of the series, in MB per minute. */
  readonly slopeMbPerMinMax: number;
}

export interface SoakVerdict {
  readonly startMb: number;
  readonly endMb: number;
  /** `endMb - startMb`: the medians of the last and the first window. */
  readonly growthMb: number;
  readonly growthFraction: number;
  /** Least-squares slope over the second half of the samples, once start-up effects have settled. */
  readonly tailSlopeMbPerMin: number;
  readonly pass: boolean;
}

/**
 * A soak passes when the last window's median is within `growthFractionMax` of the first window's
 * (no meaningful growth end to end), or when the second half of the run has no upward trend above
 * `slopeMbPerMinMax` (the process grew while caches and pools filled, then stopped). A leak grows
 * steadily, so it fails both. Comparing medians of windows, not single samples, keeps one garbage
 * collection from deciding the result.
 */
export function soakVerdict(samples: readonly RssSample[], rule: SoakRule): SoakVerdict {
  if (samples.length === 0) throw new RangeError('a soak verdict needs samples');
  const firstAt = samples[0]!.atMs;
  const lastAt = samples[samples.length - 1]!.atMs;
  const head = samples.filter((s) => s.atMs - firstAt <= rule.windowMs).map((s) => s.rssMb);
  const tail = samples.filter((s) => lastAt - s.atMs <= rule.windowMs).map((s) => s.rssMb);
  const startMb = median(head);
  const endMb = median(tail);
  const growthMb = endMb - startMb;
  const growthFraction = growthMb / startMb;
  const tailSlopeMbPerMin = slopeMbPerMin(samples.slice(Math.floor(samples.length / 2)));
  const pass =
    growthFraction <= rule.growthFractionMax ||
    (Number.isFinite(tailSlopeMbPerMin) && tailSlopeMbPerMin <= rule.slopeMbPerMinMax);
  return { startMb, endMb, growthMb, growthFraction, tailSlopeMbPerMin, pass };
}

/** `VmRSS:   123456 kB` from `/proc/<pid>/status`, in MB (MiB); null when the line is missing. */
export function parseVmRssMb(status: string): number | null {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) / 1024 : null;
}
