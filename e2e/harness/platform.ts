import { OffsetClock } from '@updown/runtime';
import type { RunningPlatform } from '../../services/platform/src/platform';
import { startInProcessPlatform, waitForStoredTick } from '../../services/platform/src/testing/in-process';
import { ApiClient } from './api';
import { consoleBuild } from './console-build';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'Admin-pass-123';

/**
 * A trade settles on the last stored tick at or before its expiry, and is void when that tick is
 * over 10 s old. So a jump over an expiry first stops this far short of it, for the feed to store
 * a tick there.
 */
const EXIT_TICK_BEFORE_EXPIRY_MS = 2_000;
/** Where the clock lands after the expiry; the first tick after it makes the trade due. */
const PAST_EXPIRY_MS = 1_000;

export interface E2ePlatform {
  readonly baseUrl: string;
  /** The platform's clock: real time until a test jumps it ahead. */
  readonly clock: OffsetClock;
  readonly api: ApiClient;
  readonly platform: RunningPlatform;
  /**
   * Jumps the clock just past `expiryMs`, leaving a stored tick of `pair` shortly before it: the
   * trades expiring then settle as they would have after the real wait.
   */
  passExpiry(pair: string, expiryMs: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole platform in this process, as `npm start` runs it, on a fresh migrated database, with
 * the console built from the current sources and an `OffsetClock`, so that a test can let a trade
 * expire at once.
 */
export async function startE2ePlatform(): Promise<E2ePlatform> {
  const consoleDir = await consoleBuild();
  const clock = new OffsetClock();
  const started = await startInProcessPlatform({
    clock,
    name: 'e2e',
    env: { CONSOLE_DIR: consoleDir, ADMIN_EMAIL, ADMIN_PASSWORD },
  });
  const { platform, baseUrl } = started;
  return {
    baseUrl,
    clock,
    api: new ApiClient(baseUrl),
    platform,
    async passExpiry(pair, expiryMs) {
      clock.advance(Math.max(0, expiryMs - EXIT_TICK_BEFORE_EXPIRY_MS - clock.now()));
      await waitForStoredTick(platform, pair, clock.now());
      clock.advance(Math.max(0, expiryMs + PAST_EXPIRY_MS - clock.now()));
    },
    stop: () => started.stop(),
  };
}
