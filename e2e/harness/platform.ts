import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger, OffsetClock } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { loadPlatformConfig } from '../../services/platform/src/config';
import { startPlatform, type RunningPlatform } from '../../services/platform/src/platform';
import { ApiClient } from './api';
import { consoleBuild } from './console-build';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'Admin-pass-123';

/** A tick stamped after a jump is stored within a second; this bounds the wait on a busy machine. */
const TICK_WAIT_MS_MAX = 10_000;
/**
 * A trade settles on the last stored tick at or before its expiry, and is void when that tick is
 * over 10 s old. So a jump over an expiry first stops this far short of it, for the feed to store
 * a tick there.
 */
const EXIT_TICK_BEFORE_EXPIRY_MS = 2_000;
/** Where the clock lands after the expiry; the first tick after it makes the trade due. */
const PAST_EXPIRY_MS = 1_000;
const POLL_MS = 50;

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
  const [database, dataDir] = await Promise.all([
    createTestDatabase(),
    mkdtemp(path.join(os.tmpdir(), 'updown-e2e-data-')),
  ]);
  const clock = new OffsetClock();
  let platform: RunningPlatform;
  try {
    const config = loadPlatformConfig({
      UPDOWN_ENV: 'test',
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      CONSOLE_DIR: consoleDir,
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
    });
    platform = await startPlatform(config, {
      clock,
      logger: createLogger({ level: 'error', name: 'updown-e2e' }),
    });
  } catch (error) {
    await cleanUp(database, dataDir);
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${platform.gateway.port}`;
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
    async stop() {
      try {
        await platform.stop();
      } finally {
        await cleanUp(database, dataDir);
      }
    },
  };
}

async function cleanUp(database: TestDatabase, dataDir: string): Promise<void> {
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
}

async function waitForStoredTick(platform: RunningPlatform, pair: string, ts: number): Promise<void> {
  const deadline = Date.now() + TICK_WAIT_MS_MAX;
  for (;;) {
    const row = await platform.database.db
      .selectFrom('market_ticks')
      .select((eb) => eb.fn.max('ts').as('latest'))
      .where('pair', '=', pair)
      .executeTakeFirst();
    if (row?.latest !== undefined && row.latest !== null && Number(row.latest) >= ts) return;
    if (Date.now() > deadline) {
      throw new Error(`no ${pair} tick at or after ${new Date(ts).toISOString()} was stored`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
