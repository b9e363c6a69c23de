import { ApiClient } from '@updown/api-client';
import { OffsetClock } from '@updown/runtime';
import {
  jumpPastExpiry,
  jumpToExitTick,
  startInProcessPlatform,
  TEST_ADMIN,
  type RunningPlatform,
} from '@updown/platform/testing';
import { consoleBuild } from './console-build';

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
 * Tick-chain checkpoints are signed every second instead of every minute, so a settled trade's
 * receipt can be issued a moment after settlement rather than up to a minute later.
 */
export const E2E_CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The whole platform in this process, as `npm start` runs it, on a fresh migrated database, with
 * the console built from the current sources and an `OffsetClock`, so that a test can let a trade
 * expire at once.
 */
export async function startE2ePlatform(env: Readonly<Record<string, string>> = {}): Promise<E2ePlatform> {
  const consoleDir = await consoleBuild();
  const clock = new OffsetClock();
  const started = await startInProcessPlatform({
    clock,
    name: 'e2e',
    admin: TEST_ADMIN,
    env: { CONSOLE_DIR: consoleDir, CHECKPOINT_INTERVAL_MS: String(E2E_CHECKPOINT_INTERVAL_MS), ...env },
  });
  const { platform, baseUrl } = started;
  return {
    baseUrl,
    clock,
    api: new ApiClient(baseUrl),
    platform,
    async passExpiry(pair, expiryMs) {
      await jumpToExitTick(platform, clock, pair, expiryMs);
      jumpPastExpiry(clock, expiryMs);
    },
    stop: () => started.stop(),
  };
}
