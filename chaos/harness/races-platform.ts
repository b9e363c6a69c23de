import { randomUUID } from 'node:crypto';
import { ApiClient } from '@updown/api-client';
import { OffsetClock } from '@updown/runtime';
import {
  jumpPastExpiry,
  jumpToExitTick,
  startInProcessPlatform,
  TICK_WAIT_MS_MAX,
  type RunningPlatform,
} from '@updown/platform/testing';

/** Connections of the platform's pool: enough that racing requests reach PostgreSQL together. */
const DB_POOL_MAX = 40;

export interface RacePlatform {
  readonly baseUrl: string;
  /** The gateway's API over fetch, for set-up; the races themselves send on their own connections. */
  readonly api: ApiClient;
  readonly clock: OffsetClock;
  readonly platform: RunningPlatform;
  /** The platform's own database handle. */
  readonly db: RunningPlatform['database']['db'];
  /**
   * Resolves with the `ts` of the first tick of `pair` published after `afterAtMs`: the moment the
   * settlement service, subscribed to the same topic, is woken to settle what expired before it.
   */
  tickAfter(pair: string, afterAtMs: number): Promise<number>;
  /** Resolves once a tick of `pair` stamped at or after the clock's current time has been published. */
  freshTick(pair: string): Promise<void>;
  /**
   * Jumps the clock just past `expiryMs`, leaving a stored tick of `pair` shortly before it, and
   * resolves (with the tick's `ts`) when the first tick after the expiry is published.
   */
  passExpiry(pair: string, expiryMs: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The whole platform in this process, as `npm start` runs it (in-memory bus, OTC feed, order,
 * settlement, bonus expiry, gateway on a real port), on a fresh migrated database and an
 * `OffsetClock`. Access tokens outlive every clock jump a scenario makes, and the auth rate limit
 * is far above what the scenarios send from 127.0.0.1.
 */
export async function startRacePlatform(): Promise<RacePlatform> {
  const clock = new OffsetClock();
  const started = await startInProcessPlatform({
    clock,
    name: 'races',
    env: {
      DB_POOL_MAX: String(DB_POOL_MAX),
      ACCESS_TOKEN_TTL_SEC: String(24 * 60 * 60),
      AUTH_IP_RATE_MAX: '100000',
    },
  });
  const { platform } = started;
  const tickAfter = async (pair: string, afterAtMs: number) =>
    (await watchTick(platform, pair, afterAtMs)).seen;
  return {
    baseUrl: started.baseUrl,
    api: new ApiClient(started.baseUrl),
    clock,
    platform,
    db: platform.database.db,
    tickAfter,
    freshTick: async (pair) => {
      await tickAfter(pair, clock.nowMs() - 1);
    },
    async passExpiry(pair, expiryMs) {
      await jumpToExitTick(platform, clock, pair, expiryMs);
      // Listening before the jump, so the first tick after it is the one heard.
      const after = await watchTick(platform, pair, expiryMs);
      jumpPastExpiry(clock, expiryMs);
      return after.seen;
    },
    stop: () => started.stop(),
  };
}

/**
 * Listens on the tick topic in a consumer group of its own, from now on; resolves once listening,
 * with the wait for the first tick of `pair` after `afterAtMs` (the group is left when it shows).
 */
async function watchTick(
  platform: RunningPlatform,
  pair: string,
  afterAtMs: number,
): Promise<{ seen: Promise<number> }> {
  let resolve!: (atMs: number) => void;
  const shown = new Promise<number>((r) => (resolve = r));
  const subscription = await platform.bus.subscribe(
    'market.ticks.v1',
    `races-${randomUUID()}`,
    async (event) => {
      if (event.payload.pair === pair && event.payload.atMs > afterAtMs) resolve(event.payload.atMs);
    },
    { fromBeginning: false },
  );
  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${pair} tick after ${new Date(afterAtMs).toISOString()} was published`)),
      TICK_WAIT_MS_MAX,
    );
    void shown.finally(() => clearTimeout(timer));
  });
  const seen = Promise.race([shown, timeout]).finally(() => {
    // Leaving the group waits for the handler in flight, which may be the one that resolved.
    void subscription.close();
  });
  return { seen };
}
