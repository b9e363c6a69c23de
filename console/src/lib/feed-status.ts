import type { Schemas } from './api-schema';

/**
 * Whether a pair's prices can be traded on. The pair buttons (market) and the trade panel
 * (trades) both say why a pair is not tradable, in the same words, so the words live here.
 */
export type FeedStatus = Schemas['FeedStatus'];

export interface FeedStatusReason {
  /** The short label beside the pair's name and in the trade panel's notice. */
  label: string;
  /** The full sentence, for a tooltip and for screen readers. */
  description: string;
}

const REASONS: Record<Exclude<FeedStatus, 'live'>, FeedStatusReason> = {
  paused: {
    label: 'feed paused',
    description: 'No fresh price for this pair: trading is paused until its feed is back.',
  },
  diverged: {
    label: 'feeds disagree',
    description: "This pair's price feeds disagree: trading is paused until they agree again.",
  },
};

/**
 * Why a pair cannot be traded now; null while it is live (the server places trades only then).
 * A status newer than this console also gives null rather than a crash: the server still refuses
 * the trade, and its error toast says why.
 */
export function feedStatusReason(status: FeedStatus): FeedStatusReason | null {
  return status === 'live' ? null : (REASONS[status] ?? null);
}
