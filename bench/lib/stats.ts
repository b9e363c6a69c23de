/** Order statistics shared by the benchmarks, kept pure so they can be tested. */

/** Nearest-rank percentile (`p` in 0..100) of values sorted ascending; NaN for no values. */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  if (p <= 0) return sortedAscending[0]!;
  const rank = Math.ceil((p / 100) * n);
  return sortedAscending[Math.min(n, rank) - 1]!;
}
