import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createLogger, type Clock, type Logger } from '@updown/runtime';
import { createTestDatabase } from '@updown/runtime/testing';
import { loadPlatformConfig } from '../config';
import { startPlatform, type RunningPlatform } from '../platform';

/** A tick is stored within a second of being due; this bounds the wait on a busy machine. */
const TICK_WAIT_MS_MAX = 15_000;
const POLL_MS = 25;

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
  readonly clock: Clock;
  /** Names the temporary directory and the default logger. */
  readonly name: string;
  /** Configuration variables added to, or replacing, the defaults below. */
  readonly env?: Readonly<Record<string, string>>;
  /** Defaults to one that logs errors only. */
  readonly logger?: Logger;
}

/**
 * The whole platform in this process, as `npm start` runs it (in-memory bus, OTC feed, order,
 * settlement, gateway), on a fresh migrated database cloned from the test template, listening on
 * 127.0.0.1 on a free port, with a random JWT secret and no console build (the placeholder page is
 * served unless `env` names a `CONSOLE_DIR`). The test harnesses of the browser journeys, the race
 * scenarios and the security suites start it through here.
 */
export async function startInProcessPlatform(options: InProcessOptions): Promise<InProcessPlatform> {
  const [database, dataDir] = await Promise.all([
    createTestDatabase(),
    mkdtemp(path.join(os.tmpdir(), `updown-${options.name}-`)),
  ]);
  const cleanUp = async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  const jwtSecret = options.env?.JWT_SECRET ?? randomBytes(48).toString('base64url');
  let platform: RunningPlatform;
  try {
    const config = loadPlatformConfig({
      UPDOWN_ENV: 'test',
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      CONSOLE_DIR: path.join(dataDir, 'no-console'),
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
      ...options.env,
    });
    platform = await startPlatform(config, {
      clock: options.clock,
      logger: options.logger ?? createLogger({ level: 'error', name: `updown-${options.name}` }),
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return {
    platform,
    baseUrl: `http://127.0.0.1:${platform.gateway.port}`,
    jwtSecret,
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
export async function waitForStoredTick(platform: RunningPlatform, pair: string, ts: number): Promise<void> {
  const deadline = Date.now() + TICK_WAIT_MS_MAX;
  for (;;) {
    const { rows } = await sql<{ latest: number | null }>`
      select max(ts) as latest from market_ticks where pair = ${pair}`.execute(platform.database.db);
    const latest = rows[0]?.latest;
    if (latest !== null && latest !== undefined && Number(latest) >= ts) return;
    if (Date.now() > deadline) {
      throw new Error(`no ${pair} tick at or after ${new Date(ts).toISOString()} was stored`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
