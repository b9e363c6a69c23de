// @ts-check
/**
 * The per-pair tick hash chain (docs/receipts.md, "Prices" and "Tick chain"): how a price is
 * written, the content string a tick's hash is taken over, and the check of a run of ticks
 * against the signed checkpoint that ends it. Hashing goes through a {@link CryptoPort}, so the
 * same code runs on node:crypto and on Web Crypto (which is asynchronous).
 */

/** @typedef {import('./crypto-port.js').CryptoPort} CryptoPort */

/**
 * A stored tick as receipts, segments and the API show it.
 *
 * @typedef {object} Tick
 * @property {number} seq 1, 2, 3 … per pair, no gaps
 * @property {number} atMs Unix epoch milliseconds
 * @property {string} price canonical decimal string ({@link priceText})
 * @property {string} prevHash the previous tick's hash; {@link GENESIS_HASH} for seq 1
 * @property {string} hash SHA-256 of {@link tickContent}, lowercase hex
 */

/**
 * What a segment must show to be the proof of a receipt's tick.
 *
 * @typedef {object} SegmentExpectation
 * @property {Tick} [first] the tick the segment must start with, equal in every field
 * @property {Tick} [second] the tick that must follow it, equal in every field
 * @property {number} toSeq the checkpoint's last tick: the segment must end with it
 * @property {string} headHash the checkpoint's head: the hash of its last tick
 * @property {number} [fromSeq] the checkpoint's first tick; with `startHash`, the tick at
 *   `fromSeq`, if the segment holds it, must have `startHash` as its prevHash
 * @property {string} [startHash]
 * @property {number} [fromMs] the checkpoint's `fromMs`: the atMs of the tick at `fromSeq`, if the
 *   segment holds it
 * @property {number} [toMs] the checkpoint's `toMs`: the atMs of its last tick
 */

/** The prevHash of every pair's first tick: sixty-four zeros. */
export const GENESIS_HASH = '0'.repeat(64);
/** The first field of every tick's content string: names the format version. */
export const TICK_HASH_PREFIX = 'updown.tick.v1';
/** Smallest price a tick may carry: below it JavaScript writes numbers in exponent form. */
export const PRICE_MIN = 0.000001;
/** Prices must stay below this, far short of where JavaScript switches to exponent form (1e21). */
export const PRICE_LIMIT = 1e15;

/** A canonical price string: no sign, no exponent, no leading zero before digits, no trailing zero. */
const PRICE_TEXT = /^(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?$/;
const HASH = /^[0-9a-f]{64}$/;
/** A segment check names at most this many problems, then counts the rest. */
const SEGMENT_PROBLEMS_MAX = 10;

/**
 * The canonical decimal string of a price: the shortest decimal that reads back as the same
 * binary64 value (`String(x)`), which in the accepted range never uses exponent form.
 *
 * @param {number} price
 * @returns {string}
 * @throws {RangeError} for a price that is not finite, not positive, below 0.000001 or from 1e15 up
 */
export function priceText(price) {
  if (typeof price !== 'number' || !Number.isFinite(price)) {
    throw new RangeError(`price ${String(price)} is not a finite number`);
  }
  if (price <= 0) throw new RangeError(`price ${String(price)} is not positive`);
  if (price < PRICE_MIN) throw new RangeError(`price ${String(price)} is below ${String(PRICE_MIN)}`);
  if (price >= PRICE_LIMIT) throw new RangeError(`price ${String(price)} is not below 1e15`);
  return String(price);
}

/**
 * Whether `text` is the canonical string of a price: what {@link priceText} gives for its value.
 *
 * @param {unknown} text
 * @returns {text is string}
 */
export function isPriceText(text) {
  if (typeof text !== 'string' || !PRICE_TEXT.test(text)) return false;
  const value = Number(text);
  return value >= PRICE_MIN && value < PRICE_LIMIT && String(value) === text;
}

/**
 * Tick times rise strictly along a pair's chain: a tick is later than every tick before it. The
 * chain's writer refuses a tick that is not later than its head, and a verifier refuses a chain
 * that breaks the rule, so "the last tick at or before an instant" names one tick and the tick
 * after it proves that nothing in between was stored. Equal times are refused too: two prices at
 * one instant would leave the price in force at that instant to the writer's choice.
 *
 * @param {{ seq: number, atMs: number }} previous an earlier tick of the chain (lower seq)
 * @param {{ seq: number, atMs: number }} tick
 * @returns {string | undefined} the problem, or undefined when `tick` is later than `previous`
 */
export function tickTimeProblem(previous, tick) {
  if (tick.atMs > previous.atMs) return undefined;
  return `tick ${tick.seq} at ${tick.atMs} is not later than tick ${previous.seq} at ${previous.atMs}: tick times rise strictly along a chain`;
}

/**
 * The string a tick's hash is taken over:
 * `updown.tick.v1|<pair>|<seq>|<atMs>|<price>|<prevHash>`.
 *
 * @param {{ pair: string, seq: number, atMs: number, price: string, prevHash: string }} tick
 *   `price` is already the canonical decimal string
 * @returns {string}
 * @throws {TypeError} when a field cannot be written unambiguously
 */
export function tickContent({ pair, seq, atMs, price, prevHash }) {
  if (typeof pair !== 'string' || pair === '' || pair.includes('|')) {
    throw new TypeError(`pair ${JSON.stringify(pair)} must be a non-empty string without "|"`);
  }
  if (!Number.isSafeInteger(seq) || seq < 1)
    throw new TypeError(`seq ${String(seq)} is not a positive integer`);
  if (!Number.isSafeInteger(atMs) || atMs < 0) {
    throw new TypeError(`atMs ${String(atMs)} is not a non-negative integer`);
  }
  if (typeof price !== 'string' || !PRICE_TEXT.test(price)) {
    throw new TypeError(`price ${JSON.stringify(price)} is not a decimal string`);
  }
  if (typeof prevHash !== 'string' || !HASH.test(prevHash)) {
    throw new TypeError(`prevHash ${JSON.stringify(prevHash)} is not 64 lowercase hex characters`);
  }
  return `${TICK_HASH_PREFIX}|${pair}|${seq}|${atMs}|${price}|${prevHash}`;
}

/**
 * The hash of a tick of `pair`: SHA-256 of its content string, lowercase hex.
 *
 * @param {CryptoPort} port
 * @param {string} pair
 * @param {Pick<Tick, 'seq' | 'atMs' | 'price' | 'prevHash'>} tick
 * @returns {Promise<string>}
 */
export async function tickHash(port, pair, tick) {
  return port.sha256Hex(
    tickContent({ pair, seq: tick.seq, atMs: tick.atMs, price: tick.price, prevHash: tick.prevHash }),
  );
}

/** The fields of a tick, in the order a difference is reported. */
const TICK_FIELDS = /** @type {const} */ (['seq', 'atMs', 'price', 'prevHash', 'hash']);

/**
 * The fields in which two ticks differ, as `name (a vs b)` phrases.
 *
 * @param {Tick} actual
 * @param {Tick} expected
 * @returns {string[]}
 */
export function tickDifferences(actual, expected) {
  return TICK_FIELDS.filter((field) => actual[field] !== expected[field]).map(
    (field) => `${field} ${String(actual[field])} vs ${String(expected[field])}`,
  );
}

/**
 * Checks a run of consecutive ticks of `pair` that ends with a checkpoint's last tick: each
 * tick's hash against its content, each prevHash against the previous tick's hash, consecutive
 * seqs, strictly rising times, the first (and second) tick against the receipt's, the last (and
 * the one at the checkpoint's `fromSeq`) against the checkpoint.
 *
 * @param {CryptoPort} port
 * @param {string} pair
 * @param {readonly Tick[]} segment
 * @param {SegmentExpectation} expect
 * @returns {Promise<string[]>} the problems found, each naming the seq where the chain breaks;
 *   empty when the segment proves its ticks
 */
export async function verifySegment(port, pair, segment, expect) {
  /** @type {string[]} */
  const problems = [];
  const first = segment[0];
  if (first === undefined) return ['the segment holds no ticks'];
  /** @type {Tick | undefined} */
  let previous;
  for (const tick of segment) {
    let content;
    try {
      content = tickContent({ pair, ...tick });
    } catch (error) {
      problems.push(`tick ${String(tick.seq)} cannot be hashed: ${message(error)}`);
      previous = tick;
      continue;
    }
    if ((await port.sha256Hex(content)) !== tick.hash) {
      problems.push(`tick ${tick.seq} hash does not match its content`);
    }
    if (previous === undefined) {
      if (tick.seq === 1 && tick.prevHash !== GENESIS_HASH) {
        problems.push('tick 1 prevHash is not the genesis hash (64 zeros)');
      }
    } else {
      if (tick.seq !== previous.seq + 1) {
        problems.push(`tick ${tick.seq} follows tick ${previous.seq}: seqs are not consecutive`);
      }
      if (tick.prevHash !== previous.hash) {
        problems.push(`tick ${tick.seq} prevHash does not equal the hash of tick ${previous.seq}`);
      }
      const late = tickTimeProblem(previous, tick);
      if (late !== undefined) problems.push(late);
    }
    if (expect.fromSeq === tick.seq && expect.startHash !== undefined && tick.prevHash !== expect.startHash) {
      problems.push(`tick ${tick.seq} prevHash does not equal the checkpoint's startHash`);
    }
    if (expect.fromSeq === tick.seq && expect.fromMs !== undefined && tick.atMs !== expect.fromMs) {
      problems.push(`tick ${tick.seq} at ${tick.atMs} is not at the checkpoint's fromMs ${expect.fromMs}`);
    }
    previous = tick;
  }
  if (expect.first !== undefined) {
    const differences = tickDifferences(first, expect.first);
    if (differences.length > 0) {
      problems.push(
        `the first tick differs from the receipt's tick ${expect.first.seq}: ${differences.join(', ')}`,
      );
    }
  }
  if (expect.second !== undefined) {
    const second = segment[1];
    if (second === undefined) {
      problems.push(`the segment ends before the receipt's tick ${expect.second.seq}`);
    } else {
      const differences = tickDifferences(second, expect.second);
      if (differences.length > 0) {
        problems.push(
          `the second tick differs from the receipt's tick ${expect.second.seq}: ${differences.join(', ')}`,
        );
      }
    }
  }
  const last = /** @type {Tick} */ (segment[segment.length - 1]);
  if (last.seq !== expect.toSeq) {
    problems.push(`the segment ends at tick ${last.seq}, the checkpoint at tick ${expect.toSeq}`);
  } else {
    if (last.hash !== expect.headHash)
      problems.push(`tick ${last.seq} hash is not the checkpoint's headHash`);
    if (expect.toMs !== undefined && last.atMs !== expect.toMs) {
      problems.push(`tick ${last.seq} at ${last.atMs} is not at the checkpoint's toMs ${expect.toMs}`);
    }
  }
  if (problems.length <= SEGMENT_PROBLEMS_MAX) return problems;
  return [
    ...problems.slice(0, SEGMENT_PROBLEMS_MAX),
    `and ${problems.length - SEGMENT_PROBLEMS_MAX} more problems`,
  ];
}

/** @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}
