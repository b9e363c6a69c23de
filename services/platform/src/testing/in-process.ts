import { latestTickAtMs } from '@updown/price-ingest';
import { awaitsReferenceTick } from '@updown/price-ingest/testing';
import { createLogger, systemClock, type Clock, type Logger, type OffsetClock } from '@updown/runtime';
import { createTestDatabase } from '@updown/runtime/testing';
import { loadPlatformConfig } from '../config';
import { startPlatform, type RunningPlatform } from '../platform';
import { testPlatformEnv } from './test-env';
import { EXIT_TICK_BEFORE_EXPIRY_MS, PAST_EXPIRY_MS, TICK_POLL_MS, TICK_WAIT_MS_MAX } from './timing';

export interface InProcessPlatform {
  readonly platform: RunningPlatform;
  /** `http://127.0.0.1:<port>` of the gateway. */
  readonly baseUrl: string;
  /** The signing key of access tokens, for tests that mint or look for tokens. */
  readonly jwtSecret: string;
  /** Stops the platform, then drops its database and data directory. */
  stop(): Promise<void>;
}

export interface InProcessOptions {
  /** Names the temporary directory and the default logger. */
  readonly name: string;
  /** Defaults to the system clock. */
  readonly clock?: Clock;
  /** The admin account created at start (e.g. `TEST_ADMIN`); none by default. */
  readonly admin?: { readonly email: string; readonly password: string };
  /** Configuration variables added to, or replacing, the defaults of `testPlatformEnv`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Defaults to one that logs errors only. */
  readonly logger?: Logger;
}

/**
 * The whole platform in this process, as `npm start` runs it (in-memory bus, OTC feed, order,
 * settlement, gateway), on a fresh migrated database cloned from the test template, listening on
 * 127.0.0.1 on a free port, with a random JWT secret and no console build (the placeholder page is
 * served unless `env` names a `CONSOLE_DIR`). Every test that needs the running platform in its
 * own process starts it through here; `startPlatformProcess` runs it as a child instead.
 */
export async function startInProcessPlatform(options: InProcessOptions): Promise<InProcessPlatform> {
  const [database, setup] = await Promise.all([
    createTestDatabase(),
    testPlatformEnv({ name: options.name, port: 0, admin: options.admin, env: options.env }),
  ]);
  const cleanUp = async () => {
    await database.drop();
    await setup.cleanUp();
  };
  let platform: RunningPlatform;
  try {
    const config = loadPlatformConfig({ DATABASE_URL: database.url, ...setup.env });
    platform = await startPlatform(config, {
      clock: options.clock ?? systemClock,
      logger: options.logger ?? createLogger({ level: 'error', name: `updown-${options.name}` }),
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    platform,
    baseUrl: `http://127.0.0.1:${platform.gateway.port}`,
    jwtSecret: setup.jwtSecret,
    async stop() {
      try {
        await platform.stop();
      } finally {
        await cleanUp();
      }
    },
  };
}

/** Resolves once a tick of `pair` stamped at or after `ts` is stored. */
export async function waitForStoredTick(
  platform: RunningPlatform,
  pair: string,
  atMs: number,
): Promise<void> {
  const deadline = Date.now() + TICK_WAIT_MS_MAX;
  for (;;) {
    const latest = (await latestTickAtMs(platform.database.db, [pair])).get(pair);
    if (latest !== undefined && Number(latest) >= atMs) return;
    if (Date.now() > deadline) {
      throw new Error(`no ${pair} tick at or after ${new Date(atMs).toISOString()} was stored`);
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_POLL_MS));
  }
}

/**
 * Resolves once the pair's reference feed, if it has one, has a stored tick stamped at or after
 * `atMs`. After a jump of the clock the pair's own feed may tick first; settling on it then would
 * find no reference price in the 10 s before expiry (`reference_unavailable`), which in real time,
 * where the reference ticks all along, does not happen.
 */
async function waitForStoredReferenceTick(
  platform: RunningPlatform,
  pair: string,
  atMs: number,
): Promise<void> {
  const db = platform.database.db;
  const deadline = Date.now() + TICK_WAIT_MS_MAX;
  for (;;) {
    if (!(await awaitsReferenceTick(db, pair, atMs))) return;
    if (Date.now() > deadline) {
      throw new Error(`no ${pair} reference tick at or after ${new Date(atMs).toISOString()} was stored`);
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_POLL_MS));
  }
}

/**
 * The first half of a jump over an expiry: moves `clock` to just short of `expiryMs` and waits
 * until the feed has stored a tick of `pair` there, the tick the trades expiring then settle on,
 * and, for a pair with a reference feed, until the reference has one there too.
 */
export async function jumpToExitTick(
  platform: RunningPlatform,
  clock: OffsetClock,
  pair: string,
  expiryMs: number,
): Promise<void> {
  clock.advance(Math.max(0, expiryMs - EXIT_TICK_BEFORE_EXPIRY_MS - clock.nowMs()));
  await waitForStoredReferenceTick(platform, pair, clock.nowMs());
  await waitForStoredTick(platform, pair, clock.nowMs());
}

/** The second half: moves `clock` just past `expiryMs`; the feed's next tick makes the trades due. */
export function jumpPastExpiry(clock: OffsetClock, expiryMs: number): void {
  clock.advance(Math.max(0, expiryMs + PAST_EXPIRY_MS - clock.nowMs()));
}
