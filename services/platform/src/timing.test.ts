import { describe, expect, it } from 'vitest';
import { TICK_WRITE_AGE_MS_MAX } from '@updown/price-ingest';
import { QUIET_FEED_SETTLE_DELAY_MS } from '@updown/settlement';

describe('timing rules between services', () => {
  it('stores no tick later than settlement may settle on the stored history without it', () => {
    // Settlement settles a trade on the stored ticks once its expiry is QUIET_FEED_SETTLE_DELAY_MS
    // past; price-ingest must never write a tick that old, or the price in force at an expiry could
    // change after the trade was settled (found by the crash-consistency suite: ticks buffered
    // through a database outage were written ~10 s late).
    expect(TICK_WRITE_AGE_MS_MAX).toBeLessThan(QUIET_FEED_SETTLE_DELAY_MS);
  });
});
