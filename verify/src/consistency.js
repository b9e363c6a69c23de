// @ts-check
/**
 * The checks of a receipt against itself (docs/receipts.md, "The order of times" and "Ids"): its id
 * and ledger key derived from its trade, its times in order, its reference prices inside their
 * windows, and every tick it and its proof hold agreeing with each other and rising in time.
 */
import { tickDifferences, tickTimeProblem } from './chain.js';
import { REFERENCE_AGE_MS_MAX } from './rules.js';

/** @typedef {import('./crypto-port.js').CryptoPort} CryptoPort */
/** @typedef {import('./chain.js').Tick} Tick */

/** What a receipt id is derived from: this prefix, a colon and the trade id. */
export const RECEIPT_ID_PREFIX = 'updown.receipt.v1';

/**
 * A receipt's id, derived from its trade's id so that reissuing gives the same id and the settled
 * event can name it before the receipt exists: the SHA-256 of `updown.receipt.v1:<tradeId>`
 * (lowercase hex), written as a UUID (RFC 9562 version 8): hex 0–7, 8–11, then `8` and hex 13–15,
 * then the variant digit (hex 16's low two bits plus 8) and hex 17–19, then hex 20–31.
 *
 * @param {CryptoPort} port
 * @param {string} tradeId
 * @returns {Promise<string>}
 */
export async function receiptIdFor(port, tradeId) {
  const hex = await port.sha256Hex(`${RECEIPT_ID_PREFIX}:${tradeId}`);
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The idempotency key of a trade's settlement entry in the ledger.
 *
 * @param {string} tradeId
 * @returns {string}
 */
export function ledgerKeyFor(tradeId) {
  return `trade:${tradeId}:settle`;
}

/**
 * Each tick the receipt and its proof hold, once per seq, with where it was found.
 *
 * @typedef {object} GivenTicks
 * @property {Tick[]} ticks in seq order
 * @property {string[]} problems two different ticks under one seq, in two places
 */

/**
 * @typedef {object} TickSources
 * @property {Tick | null} entryTick
 * @property {Tick | null} exitTick
 * @property {Tick | null} afterExpiryTick
 * @property {readonly Tick[]} entrySegment
 * @property {readonly Tick[]} exitSegment
 */

/**
 * Every tick given, merged by seq. A seq held twice with different content in two places (a
 * receipt tick and a segment, or the two segments, as two forks of one chain would give) is a
 * problem; twice in one segment is the chain check's to name.
 *
 * @param {TickSources} sources
 * @returns {GivenTicks & { sourcesOf: Map<number, Set<string>> }}
 */
export function givenTicks(sources) {
  /** @type {Map<number, Tick>} */
  const bySeq = new Map();
  /** @type {Map<number, Set<string>>} */
  const sourcesOf = new Map();
  /** @type {string[]} */
  const problems = [];
  /** @type {[string, readonly Tick[]][]} */
  const places = [
    ['entryTick', sources.entryTick ? [sources.entryTick] : []],
    ['exitTick', sources.exitTick ? [sources.exitTick] : []],
    ['afterExpiryTick', sources.afterExpiryTick ? [sources.afterExpiryTick] : []],
    ['the entry segment', sources.entrySegment],
    ['the exit segment', sources.exitSegment],
  ];
  for (const [place, ticks] of places) {
    for (const tick of ticks) {
      const known = bySeq.get(tick.seq);
      const seen = sourcesOf.get(tick.seq);
      if (known === undefined || seen === undefined) {
        bySeq.set(tick.seq, tick);
        sourcesOf.set(tick.seq, new Set([place]));
        continue;
      }
      if (seen.has(place)) continue;
      const differences = tickDifferences(tick, known);
      if (differences.length > 0) {
        problems.push(
          `tick ${tick.seq} in ${place} differs from tick ${tick.seq} in ${[...seen][0]}: ${differences.join(', ')}`,
        );
      }
      seen.add(place);
    }
  }
  const ticks = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return { ticks, problems, sourcesOf };
}

/**
 * Tick times rise strictly across every tick given: checked between neighbours in seq order that
 * no one segment holds together (inside a segment, the chain check names them).
 *
 * @param {readonly Tick[]} ticks in seq order
 * @param {Map<number, Set<string>>} sourcesOf
 * @returns {string[]}
 */
export function givenTickOrderProblems(ticks, sourcesOf) {
  /** @type {string[]} */
  const problems = [];
  for (let index = 1; index < ticks.length; index += 1) {
    const previous = /** @type {Tick} */ (ticks[index - 1]);
    const tick = /** @type {Tick} */ (ticks[index]);
    const shared = [...(sourcesOf.get(tick.seq) ?? [])].some(
      (place) => place.endsWith('segment') && sourcesOf.get(previous.seq)?.has(place),
    );
    if (shared) continue;
    const problem = tickTimeProblem(previous, tick);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/**
 * The order of a receipt's own times: accepted ≤ expiry ≤ settled ≤ issued.
 *
 * @param {{ acceptedAtMs: number, expiryAtMs: number, settledAtMs: number, issuedAtMs: number }} receipt
 * @returns {string[]}
 */
export function receiptTimeProblems(receipt) {
  /** @type {[string, number][]} */
  const times = [
    ['acceptedAtMs', receipt.acceptedAtMs],
    ['expiryAtMs', receipt.expiryAtMs],
    ['settledAtMs', receipt.settledAtMs],
    ['issuedAtMs', receipt.issuedAtMs],
  ];
  /** @type {string[]} */
  const problems = [];
  for (let index = 1; index < times.length; index += 1) {
    const [earlierName, earlier] = /** @type {[string, number]} */ (times[index - 1]);
    const [name, value] = /** @type {[string, number]} */ (times[index]);
    if (value < earlier) problems.push(`${name} ${value} is before ${earlierName} ${earlier}`);
  }
  return problems;
}

/**
 * The reference prices inside their windows: each is the reference's price in force at its moment
 * (acceptance, expiry), so it is from the {@link REFERENCE_AGE_MS_MAX} before that moment, and a
 * price and its time are both null or both set.
 *
 * @param {{ acceptedAtMs: number, expiryAtMs: number, reference?: { entryPrice: string | null, entryAtMs: number | null, expiryPrice: string | null, expiryAtMs: number | null } }} receipt
 * @returns {string[]}
 */
export function referenceTimeProblems(receipt) {
  const reference = receipt.reference;
  if (!reference) return [];
  /** @type {string[]} */
  const problems = [];
  /** @type {[string, string | null, number | null, string, number][]} */
  const moments = [
    ['entry', reference.entryPrice, reference.entryAtMs, 'the acceptance', receipt.acceptedAtMs],
    ['expiry', reference.expiryPrice, reference.expiryAtMs, 'the expiry', receipt.expiryAtMs],
  ];
  for (const [side, price, atMs, moment, momentMs] of moments) {
    if ((price === null) !== (atMs === null)) {
      problems.push(`reference.${side}Price and reference.${side}AtMs are not both null or both set`);
    } else if (atMs !== null && atMs > momentMs) {
      problems.push(`reference.${side}AtMs ${atMs} is after ${moment} at ${momentMs}`);
    } else if (atMs !== null && momentMs - atMs > REFERENCE_AGE_MS_MAX) {
      problems.push(
        `reference.${side}AtMs ${atMs} is ${momentMs - atMs} ms before ${moment} at ${momentMs}: a reference price more than ${REFERENCE_AGE_MS_MAX} ms old is none`,
      );
    }
  }
  return problems;
}
