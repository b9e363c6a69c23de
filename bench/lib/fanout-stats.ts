/**
 * Delay histograms for the fan-out benchmark: one bucket per millisecond (the resolution of a
 * tick's `ts`), so client processes send counts rather than every sample and the parent merges
 * them exactly. Delays past the last bucket are counted in it and reported as "at least".
 */

/** The last bucket holds this delay and every longer one. */
export const DELAY_BUCKETS_MS_MAX = 60_000;

export class DelayHistogram {
  readonly counts = new Uint32Array(DELAY_BUCKETS_MS_MAX + 1);
  total = 0;

  record(delayMs: number): void {
    const bucket = Math.min(DELAY_BUCKETS_MS_MAX, Math.max(0, Math.round(delayMs)));
    this.counts[bucket]!++;
    this.total++;
  }

  /** Non-empty buckets as `[delayMs, count]`, small enough to send over IPC. */
  toSparse(): [number, number][] {
    const sparse: [number, number][] = [];
    this.counts.forEach((count, delay) => {
      if (count > 0) sparse.push([delay, count]);
    });
    return sparse;
  }

  addSparse(sparse: readonly (readonly [number, number])[]): void {
    for (const [delay, count] of sparse) {
      const bucket = Math.min(DELAY_BUCKETS_MS_MAX, Math.max(0, Math.round(delay)));
      this.counts[bucket]! += count;
      this.total += count;
    }
  }

  /** The smallest delay at or below which `q` (0..1) of the samples fall; NaN when empty. */
  percentile(q: number): number {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`percentile must be within 0..1, got ${q}`);
    if (this.total === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let delay = 0; delay < this.counts.length; delay++) {
      seen += this.counts[delay]!;
      if (seen >= rank) return delay;
    }
    return DELAY_BUCKETS_MS_MAX;
  }

  max(): number {
    for (let delay = this.counts.length - 1; delay >= 0; delay--) if (this.counts[delay]! > 0) return delay;
    return Number.NaN;
  }
}

/** Sockets per pair when `clients` are spread round-robin over `pairs`. */
export function clientsPerPair(clients: number, pairs: number): number[] {
  if (!Number.isInteger(clients) || clients < 0 || !Number.isInteger(pairs) || pairs < 1) {
    throw new RangeError('clients must be a non-negative integer and pairs a positive one');
  }
  return Array.from({ length: pairs }, (_, i) => Math.floor(clients / pairs) + (i < clients % pairs ? 1 : 0));
}

/** Messages the clients should have received: each tick of a pair goes to every socket of that pair. */
export function expectedDeliveries(
  ticksPerPair: readonly number[],
  socketsPerPair: readonly number[],
): number {
  if (ticksPerPair.length !== socketsPerPair.length) throw new RangeError('one tick count per pair');
  return ticksPerPair.reduce((sum, ticks, i) => sum + ticks * socketsPerPair[i]!, 0);
}
