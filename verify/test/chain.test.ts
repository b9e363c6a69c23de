import { describe, expect, it } from 'vitest';
import {
  GENESIS_HASH,
  TICK_HASH_PREFIX,
  isPriceText,
  priceText,
  tickContent,
  tickHash,
  tickTimeProblem,
  verifySegment,
  type Tick,
} from '../src/chain.js';
import { nodeCrypto } from '../src/node-crypto.js';
import { webCrypto } from '../src/web-crypto.js';
import { buildChain, relink, sampleChain } from './fixtures.js';
import { TICK_1, TICK_2 } from './vectors.js';

describe('priceText', () => {
  it('is the shortest round-trip decimal, never in exponent form', () => {
    expect(priceText(95012.34)).toBe('95012.34');
    expect(priceText(1.1600123456789)).toBe('1.1600123456789');
    expect(priceText(155)).toBe('155');
    expect(priceText(155.0)).toBe('155');
    expect(priceText(0.5)).toBe('0.5');
    expect(priceText(0.000001)).toBe('0.000001');
    expect(priceText(0.0000012345)).toBe('0.0000012345');
    expect(priceText(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(priceText(999_999_999_999_999)).toBe('999999999999999');
    expect(priceText(123_456_789_012_345.6)).toBe('123456789012345.6');
  });

  it('refuses prices that are not finite, not positive, below 0.000001 or from 1e15 up', () => {
    for (const bad of [
      Number.NaN,
      Infinity,
      -Infinity,
      0,
      -0,
      -1,
      0.00000099,
      1e-7,
      5e-324,
      1e15,
      1e21,
      2e300,
    ]) {
      expect(() => priceText(bad), String(bad)).toThrow(RangeError);
    }
    expect(() => priceText('1' as unknown as number)).toThrow(RangeError);
  });

  it('recognises canonical price strings only', () => {
    for (const good of ['95012.34', '155', '0.5', '0.000001', '999999999999999'])
      expect(isPriceText(good)).toBe(true);
    for (const bad of [
      '155.0',
      '155.',
      '.5',
      '00.5',
      '+1',
      '-1',
      '1e3',
      '1E-7',
      '0',
      '0.0000001',
      '1000000000000000',
      ' 1',
      '0.30000000000000001',
      155,
    ]) {
      expect(isPriceText(bad), String(bad)).toBe(false);
    }
  });
});

describe('tickContent and the tick hash', () => {
  it('writes the content string of the fixed vectors', () => {
    expect(TICK_HASH_PREFIX).toBe('updown.tick.v1');
    expect(GENESIS_HASH).toBe('0'.repeat(64));
    expect(tickContent(TICK_1)).toBe(TICK_1.content);
    expect(tickContent(TICK_2)).toBe(TICK_2.content);
  });

  it('hashes the vectors to their hashes with both ports', async () => {
    for (const port of [nodeCrypto, webCrypto()]) {
      expect(await port.sha256Hex(TICK_1.content)).toBe(TICK_1.hash);
      expect(await tickHash(port, 'BTCUSDT', TICK_2)).toBe(TICK_2.hash);
    }
  });

  it('refuses fields that would make the content ambiguous', () => {
    const good = { pair: 'BTCUSDT', seq: 1, atMs: 0, price: '1', prevHash: GENESIS_HASH };
    expect(() => tickContent({ ...good, pair: 'BTC|USDT' })).toThrow(TypeError);
    expect(() => tickContent({ ...good, pair: '' })).toThrow(TypeError);
    expect(() => tickContent({ ...good, seq: 0 })).toThrow(TypeError);
    expect(() => tickContent({ ...good, seq: 1.5 })).toThrow(TypeError);
    expect(() => tickContent({ ...good, atMs: -1 })).toThrow(TypeError);
    expect(() => tickContent({ ...good, price: '1e3' })).toThrow(TypeError);
    expect(() => tickContent({ ...good, prevHash: GENESIS_HASH.toUpperCase().replace(/0/g, 'A') })).toThrow(
      TypeError,
    );
  });
});

describe('verifySegment', () => {
  const pair = 'BTCUSDT';
  const chain = sampleChain(pair, 24);
  const segmentOf = (from: number, to: number): Tick[] =>
    chain.slice(from - 1, to).map((tick) => ({ ...tick }));
  const expectOf = (segment: readonly Tick[]) => ({
    first: segment[0],
    toSeq: 24,
    headHash: (chain[23] as Tick).hash,
  });

  it('accepts a run of the chain that ends at the checkpoint head', async () => {
    const segment = segmentOf(10, 24);
    expect(await verifySegment(nodeCrypto, pair, segment, expectOf(segment))).toEqual([]);
    expect(
      await verifySegment(webCrypto(), pair, segment, { ...expectOf(segment), second: chain[10] }),
    ).toEqual([]);
    expect(
      await verifySegment(nodeCrypto, pair, segmentOf(1, 24), {
        toSeq: 24,
        headHash: (chain[23] as Tick).hash,
      }),
    ).toEqual([]);
  });

  it('names the tick whose price changed', async () => {
    const segment = segmentOf(10, 24);
    const expected = expectOf(segment);
    (segment[3] as Tick).price = '1.5';
    expect(await verifySegment(nodeCrypto, pair, segment, expected)).toEqual([
      'tick 13 hash does not match its content',
    ]);
  });

  it('names where a rehashed change breaks the links', async () => {
    const segment = segmentOf(10, 24);
    const expected = expectOf(segment);
    (segment[3] as Tick).price = '1.5';
    relink(pair, segment.slice(3, 4), (segment[2] as Tick).hash);
    expect(await verifySegment(nodeCrypto, pair, segment, expected)).toEqual([
      'tick 14 prevHash does not equal the hash of tick 13',
    ]);
    relink(pair, segment.slice(3), (segment[2] as Tick).hash);
    expect(await verifySegment(nodeCrypto, pair, segment, expected)).toEqual([
      "tick 24 hash is not the checkpoint's headHash",
    ]);
  });

  it('names a removed tick and an inserted one', async () => {
    const removed = segmentOf(10, 24);
    removed.splice(4, 1);
    expect(await verifySegment(nodeCrypto, pair, removed, expectOf(removed))).toEqual([
      'tick 15 follows tick 13: seqs are not consecutive',
      'tick 15 prevHash does not equal the hash of tick 13',
    ]);
    const inserted = segmentOf(10, 24);
    const t13 = inserted[3] as Tick;
    inserted.splice(4, 0, { ...t13, price: '95000' });
    expect(await verifySegment(nodeCrypto, pair, inserted, expectOf(inserted))).toEqual([
      'tick 13 hash does not match its content',
      'tick 13 follows tick 13: seqs are not consecutive',
      'tick 13 prevHash does not equal the hash of tick 13',
      `tick 13 at ${t13.atMs} is not later than tick 13 at ${t13.atMs}: tick times rise strictly along a chain`,
    ]);
    // Inserted with its own seq, the later ticks renumbered and every hash recomputed: the
    // segment no longer ends where the checkpoint does.
    const renumbered = segmentOf(10, 24);
    renumbered.splice(4, 0, { ...(renumbered[3] as Tick), atMs: (renumbered[3] as Tick).atMs + 1 });
    renumbered.forEach((tick, index) => (tick.seq = 10 + index));
    relink(pair, renumbered, (renumbered[0] as Tick).prevHash);
    expect(await verifySegment(nodeCrypto, pair, renumbered, expectOf(renumbered))).toEqual([
      'the segment ends at tick 25, the checkpoint at tick 24',
    ]);
  });

  it('checks the first and second tick against the receipt, and the end against the checkpoint', async () => {
    const segment = segmentOf(10, 24);
    const [t10, t11, t12] = [chain[9], chain[10], chain[11]] as [Tick, Tick, Tick];
    expect(
      await verifySegment(nodeCrypto, pair, segment, {
        ...expectOf(segment),
        first: { ...t10, price: '1' },
        second: t12,
      }),
    ).toEqual([
      `the first tick differs from the receipt's tick 10: price ${t10.price} vs 1`,
      `the second tick differs from the receipt's tick 12: seq 11 vs 12, atMs ${t11.atMs} vs ${t12.atMs}, ` +
        `price ${t11.price} vs ${t12.price}, prevHash ${t11.prevHash} vs ${t12.prevHash}, hash ${t11.hash} vs ${t12.hash}`,
    ]);
    expect(await verifySegment(nodeCrypto, pair, segmentOf(10, 23), expectOf(segment))).toEqual([
      'the segment ends at tick 23, the checkpoint at tick 24',
    ]);
    expect(await verifySegment(nodeCrypto, pair, [], expectOf(segment))).toEqual([
      'the segment holds no ticks',
    ]);
  });

  it("checks tick 1 against the genesis hash and the checkpoint's first tick against its startHash", async () => {
    const forged = buildChain(pair, [
      { atMs: 1, price: 1 },
      { atMs: 2, price: 2 },
    ]);
    (forged[0] as Tick).prevHash = 'f'.repeat(64);
    relink(pair, forged, 'f'.repeat(64));
    expect(
      await verifySegment(nodeCrypto, pair, forged, { toSeq: 2, headHash: (forged[1] as Tick).hash }),
    ).toEqual(['tick 1 prevHash is not the genesis hash (64 zeros)']);
    const segment = segmentOf(10, 24);
    expect(
      await verifySegment(nodeCrypto, pair, segment, {
        ...expectOf(segment),
        fromSeq: 17,
        startHash: 'a'.repeat(64),
      }),
    ).toEqual(["tick 17 prevHash does not equal the checkpoint's startHash"]);
  });

  it('refuses tick times that do not rise strictly, even in a chain whose hashes all agree', async () => {
    const equal = buildChain(pair, [
      { atMs: 1_000, price: 1 },
      { atMs: 1_000, price: 2 },
      { atMs: 900, price: 3 },
      { atMs: 1_001, price: 4 },
    ]);
    expect(
      await verifySegment(nodeCrypto, pair, equal, { toSeq: 4, headHash: (equal[3] as Tick).hash }),
    ).toEqual([
      'tick 2 at 1000 is not later than tick 1 at 1000: tick times rise strictly along a chain',
      'tick 3 at 900 is not later than tick 2 at 1000: tick times rise strictly along a chain',
    ]);
    expect(tickTimeProblem({ seq: 1, atMs: 5 }, { seq: 2, atMs: 6 })).toBeUndefined();
    expect(tickTimeProblem({ seq: 1, atMs: 5 }, { seq: 2, atMs: 5 })).toBe(
      'tick 2 at 5 is not later than tick 1 at 5: tick times rise strictly along a chain',
    );
  });

  it("checks the checkpoint's fromMs and toMs against the ticks it names", async () => {
    const segment = segmentOf(10, 24);
    const times = { fromSeq: 17, fromMs: (chain[16] as Tick).atMs, toMs: (chain[23] as Tick).atMs };
    expect(await verifySegment(nodeCrypto, pair, segment, { ...expectOf(segment), ...times })).toEqual([]);
    expect(
      await verifySegment(nodeCrypto, pair, segment, {
        ...expectOf(segment),
        ...times,
        fromMs: times.fromMs - 1,
        toMs: times.toMs + 1,
      }),
    ).toEqual([
      `tick 17 at ${times.fromMs} is not at the checkpoint's fromMs ${times.fromMs - 1}`,
      `tick 24 at ${times.toMs} is not at the checkpoint's toMs ${times.toMs + 1}`,
    ]);
  });

  it('hashes with the pair: the same ticks under another pair do not verify', async () => {
    const segment = segmentOf(20, 24);
    const problems = await verifySegment(nodeCrypto, 'ETHUSDT', segment, expectOf(segment));
    expect(problems).toContain('tick 20 hash does not match its content');
  });

  it('names at most ten problems, then counts the rest', async () => {
    const segment = segmentOf(1, 24).map((tick) => ({ ...tick, hash: 'e'.repeat(64) }));
    const problems = await verifySegment(nodeCrypto, pair, segment, { toSeq: 24, headHash: 'e'.repeat(64) });
    expect(problems).toHaveLength(11);
    expect(problems.at(-1)).toMatch(/^and \d+ more problems$/);
  });
});
