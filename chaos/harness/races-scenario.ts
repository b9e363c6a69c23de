import { afterAll, beforeAll, it } from 'vitest';
import { chaosSeed, createRandom, type Random } from './random';
import { Connections } from './races-http';
import { startRacePlatform, type RacePlatform } from './races-platform';
import { range } from './races-support';

/**
 * The frame of every race scenario (`chaos/races/*.int.test.ts`): the whole platform in this
 * process on a real port, many requests in flight at once, each on its own keep-alive connection,
 * repeated for several rounds so the interleavings differ. Every round asserts the exact outcome the
 * sequential model allows, that money moved only where the round says (per account type, to the
 * cent), that the ledger verifies and that no settlement pass failed. `UPDOWN_TEST_LONG=1` runs more
 * rounds; `CHAOS_SEED` replays one run's choices (amounts, request mixes, delays). Each scenario has
 * a platform and database of its own, so trades left pending by one never settle inside another's
 * accounting.
 */

const LONG = process.env.UPDOWN_TEST_LONG === '1';
export const ROUNDS = LONG ? 25 : 5;
const SCENARIO_TIMEOUT_MS = LONG ? 1_800_000 : 240_000;
const PLATFORM_TIMEOUT_MS = 120_000;
export const SEED = chaosSeed();
const random = createRandom(SEED);
export const PAIR = 'BTCUSDT';
/** The bonus expiry job's period on the platform clock (its default). */
export const BONUS_JOB_INTERVAL_MS = 60_000;

export type Round = (p: RacePlatform, connections: Connections, rng: Random, round: number) => Promise<void>;

/**
 * A platform for the scenario, `connectionCount` connections to it, and `ROUNDS` rounds; `stream`
 * picks the scenario's own sequence of the seeded generator.
 */
export function scenario(
  title: string,
  connectionCount: number,
  prepare: (p: RacePlatform) => Promise<Round>,
  stream: number,
): void {
  let platform: RacePlatform | undefined;
  beforeAll(async () => {
    platform = await startRacePlatform();
  }, PLATFORM_TIMEOUT_MS);
  afterAll(async () => {
    await platform?.stop();
  }, PLATFORM_TIMEOUT_MS);
  it(
    `${title} (CHAOS_SEED=${SEED}, ${ROUNDS} rounds)`,
    async () => {
      const p = platform!;
      const round = await prepare(p);
      const connections = await Connections.open(p.baseUrl, connectionCount);
      try {
        for (const n of range(ROUNDS)) await round(p, connections, random.fork(stream * 1_000 + n), n);
      } finally {
        await connections.close();
      }
    },
    SCENARIO_TIMEOUT_MS,
  );
}
