/**
 * A small seeded generator (sfc32 seeded through splitmix32), so one seed replays one run's choices.
 * `Math.random` cannot be seeded, and the quality needed here is "well mixed", not cryptographic.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** An independent generator for a named stream (a worker, the crash schedule). */
  fork(stream: number): Random;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRandom(seed: number): Random {
  const mix = splitmix32(seed);
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  const random: Random = {
    next: () => next32() / 2 ** 32,
    int: (min, max) => min + Math.floor(random.next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[random.int(0, items.length - 1)]!;
    },
    chance: (p) => random.next() < p,
    fork: (stream) => createRandom((seed ^ Math.imul(stream + 1, 0x27d4eb2d)) >>> 0),
  };
  return random;
}

/** `CHAOS_SEED` when set (a replay), else a fresh seed from the clock. */
export function chaosSeed(source: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = source.CHAOS_SEED;
  if (raw !== undefined && raw !== '') {
    if (!/^\d+$/.test(raw) || Number(raw) > 0xffffffff) {
      throw new Error(`CHAOS_SEED must be a whole number below 2^32, got ${raw}`);
    }
    return Number(raw);
  }
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}
