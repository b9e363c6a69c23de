import { describe, expect, it } from 'vitest';
import { PAIRS_POLL_MS, pairsQueryOptions } from './get-pairs';

describe('pairsQueryOptions', () => {
  it('asks for the pairs again every 3 s, so a paused feed shows within a few seconds', () => {
    const options = pairsQueryOptions();
    expect(PAIRS_POLL_MS).toBe(3000);
    expect(options.refetchInterval).toBe(PAIRS_POLL_MS);
    // React Query's default: the timer stops while the page is in a background tab.
    expect(options.refetchIntervalInBackground).toBeUndefined();
    expect(options.staleTime).toBe(PAIRS_POLL_MS);
  });
});
