import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { SignInBusy } from './auth.errors';

/**
 * Password hashing with scrypt, Node's built-in memory-hard KDF (no native dependency). Each hash
 * carries its parameters and salt, `scrypt$N$r$p$salt$hash` (base64url), so the cost can be raised
 * later and old hashes still verify (and are upgraded at the next sign-in, see `needsRehash`).
 */

export interface ScryptParams {
  /** CPU/memory cost, a power of two. Memory used is 128 * N * r bytes: 32 MiB by default. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Refuses parameters read from a stored hash that would take unreasonable memory or time. */
const N_MAX = 2 ** 20;
const R_MAX = 32;
const P_MAX = 16;

/** Each hash holds 32 MiB for ~100 ms; a few at once use the cores without exhausting memory. */
const CONCURRENT_MAX = 4;
/** Beyond this, sign-in requests are refused at once (429) instead of waiting without bound. */
const QUEUED_MAX = 256;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // Node refuses (rather than swaps) when the work needs more than maxmem; allow twice the need.
    maxmem: 2 * 128 * params.N * params.r * params.p + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

interface ParsedHash {
  readonly params: ScryptParams;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function parse(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid =
    Number.isInteger(N) &&
    N > 1 &&
    N <= N_MAX &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= R_MAX &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= P_MAX;
  if (!valid) return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length < 8 || key.length !== KEY_BYTES) return undefined;
  return { params: { N, r, p }, salt, key };
}

/** A counting semaphore with a bounded queue. */
class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrent: number,
    private readonly queued: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrent) {
      if (this.waiting.length >= this.queued) throw new SignInBusy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export class PasswordHasher {
  private readonly gate = new Gate(CONCURRENT_MAX, QUEUED_MAX);
  private dummy: Promise<string> | undefined;

  constructor(readonly params: ScryptParams = DEFAULT_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.gate.run(() => derive(password, salt, this.params));
    const { N, r, p } = this.params;
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  }

  /** Constant-time comparison of the derived key; a malformed stored hash never verifies. */
  async verify(password: string, stored: string): Promise<boolean> {
    const parsed = parse(stored);
    if (!parsed) {
      // Spend the same time as a real check so a corrupt row is not visible from outside.
      await this.verify(password, await this.dummyHash());
      return false;
    }
    const key = await this.gate.run(() => derive(password, parsed.salt, parsed.params));
    return timingSafeEqual(key, parsed.key);
  }

  /**
   * Burns the time of one verification and answers false: used when the email is unknown, so a
   * wrong email and a wrong password take as long as each other.
   */
  async verifyNobody(password: string): Promise<false> {
    await this.verify(password, await this.dummyHash());
    return false;
  }

  /** True when a stored hash uses other parameters than the current ones. */
  needsRehash(stored: string): boolean {
    const parsed = parse(stored);
    if (!parsed) return false;
    const { N, r, p } = parsed.params;
    return N !== this.params.N || r !== this.params.r || p !== this.params.p;
  }

  /** Computes the dummy hash ahead of the first unknown-email login, which would otherwise pay twice. */
  async warm(): Promise<void> {
    await this.dummyHash();
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'));
    return this.dummy;
  }
}
