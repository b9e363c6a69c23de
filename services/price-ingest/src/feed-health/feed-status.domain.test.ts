import { describe, expect, it } from 'vitest';
import { currentDivergenceBps, FEED_STALE_AFTER_MS, pairFeedStatus, pricesAgree } from './feed-status.domain';

const NOW = 1_800_000_000_000;
const fresh = NOW - 1_000;
const stale = NOW - FEED_STALE_AFTER_MS - 1;

describe('pairFeedStatus', () => {
  it('is live on a fresh feed without a reference, paused on a stale or silent one', () => {
    expect(pairFeedStatus({ lastTickAtMs: fresh, reference: null }, NOW)).toBe('live');
    expect(pairFeedStatus({ lastTickAtMs: NOW - FEED_STALE_AFTER_MS, reference: null }, NOW)).toBe('live');
    expect(pairFeedStatus({ lastTickAtMs: stale, reference: null }, NOW)).toBe('paused');
    expect(pairFeedStatus({ lastTickAtMs: null, reference: null }, NOW)).toBe('paused');
  });

  it('pauses the pair when its reference is stale: nothing to check the price against', () => {
    const reference = { lastTickAtMs: stale, agrees: true };
    expect(pairFeedStatus({ lastTickAtMs: fresh, reference }, NOW)).toBe('paused');
    expect(
      pairFeedStatus({ lastTickAtMs: fresh, reference: { lastTickAtMs: fresh, agrees: null } }, NOW),
    ).toBe('paused');
  });

  it('is diverged when both are live and further apart than the spread', () => {
    const state = (referencePrice: number) => ({
      lastTickAtMs: fresh,
      reference: { lastTickAtMs: fresh, agrees: pricesAgree(100, referencePrice, 50) },
    });
    expect(pairFeedStatus(state(100.4), NOW)).toBe('live');
    expect(pairFeedStatus(state(101), NOW)).toBe('diverged');
  });

  it('measures the current divergence only with both prices', () => {
    expect(currentDivergenceBps(101, 100)).toBeCloseTo(100, 9);
    expect(currentDivergenceBps(null, 100)).toBeNull();
    expect(currentDivergenceBps(100, null)).toBeNull();
  });
});
