import { divergenceBps, feedsAgree } from '@updown/verify/rules';

/**
 * Whether a pair can be traded now, from what its feeds last said (DESIGN §3, docs/feeds.md):
 * `paused` when its feed, or its reference feed, has had no tick for 5 s; `diverged` when both
 * are live but disagree by more than the pair's spread; `live` otherwise. One rule for the
 * console's pair buttons, the admin Feeds view and placement's refusal.
 */

export type FeedStatus = 'live' | 'paused' | 'diverged';

/** A feed with no tick for this long is stale, and its pair untradable (the spec's 5 s). */
export const FEED_STALE_AFTER_MS = 5_000;

export interface ReferenceState {
  readonly lastTickAtMs: number | null;
  /** Whether the two feeds' latest prices agree within the pair's spread; null without both. */
  readonly agrees: boolean | null;
}

export interface PairFeedState {
  readonly lastTickAtMs: number | null;
  /** Null for a pair without a reference feed. */
  readonly reference: ReferenceState | null;
}

export function isStale(lastTickAtMs: number | null, nowMs: number): boolean {
  return lastTickAtMs === null || nowMs - lastTickAtMs > FEED_STALE_AFTER_MS;
}

export function pairFeedStatus(state: PairFeedState, nowMs: number): FeedStatus {
  if (isStale(state.lastTickAtMs, nowMs)) return 'paused';
  const reference = state.reference;
  if (!reference) return 'live';
  if (isStale(reference.lastTickAtMs, nowMs) || reference.agrees === null) return 'paused';
  return reference.agrees ? 'live' : 'diverged';
}

/** `feedsAgree` for prices that may be missing. */
export function pricesAgree(
  price: number | null,
  referencePrice: number | null,
  spreadBps: number,
): boolean | null {
  if (price === null || referencePrice === null) return null;
  return feedsAgree(price, referencePrice, spreadBps);
}

/** How far apart the two feeds are now, basis points; null without both prices. */
export function currentDivergenceBps(price: number | null, referencePrice: number | null): number | null {
  if (price === null || referencePrice === null || referencePrice <= 0) return null;
  return divergenceBps(price, referencePrice);
}
