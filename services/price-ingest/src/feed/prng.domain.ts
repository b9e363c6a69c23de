/**
 * A small, seeded pseudo-random generator: xoshiro128** (Blackman and Vigna) for uniforms and the
 * Box–Muller transform for standard normals. It is fast, has a period of 2^128 − 1 and gives the
 * same sequence for the same seed on every platform, which makes the OTC feed reproducible.
 * It is not cryptographic: see the README on keeping the production seed secret.
 */

/** FNV-1a over the UTF-16 code units of a string, continuing from `hash`. */
function fnv1a(text: string, hash: number): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Mixes a seed and any labels into one 32-bit seed, so that each pair (and each purpose, such as
 * the live feed or the history backfill) draws from its own independent stream.
 */
export function deriveSeed(seed: number, ...labels: readonly (string | number)[]): number {
  let h = fnv1a(String(seed >>> 0), 0x811c9dc5);
  for (const label of labels) h = fnv1a(`|${String(label)}`, h);
  return h;
}

/** splitmix32: spreads one 32-bit seed over the four words of xoshiro's state. */
function splitmix32(state: { value: number }): number {
  state.value = (state.value + 0x9e3779b9) | 0;
  let z = state.value;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal: number | undefined;

  constructor(seed: number) {
    const state = { value: seed >>> 0 };
    this.a = splitmix32(state);
    this.b = splitmix32(state);
    this.c = splitmix32(state);
    this.d = splitmix32(state);
    // An all-zero state would only ever produce zeros; splitmix32 cannot yield four zeros, but be sure.
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** The next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in (0, 1): never 0, so its logarithm is always finite. */
  nextUniform(): number {
    return (this.nextUint32() + 0.5) / 4294967296;
  }

  /** Standard normal (mean 0, variance 1), two per pair of uniforms. */
  nextNormal(): number {
    if (this.spareNormal !== undefined) {
      const spare = this.spareNormal;
      this.spareNormal = undefined;
      return spare;
    }
    const radius = Math.sqrt(-2 * Math.log(this.nextUniform()));
    const angle = 2 * Math.PI * this.nextUniform();
    this.spareNormal = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  }
}
