import { sql } from 'kysely';
import { createDb, createLogger, isDatabaseUnavailable, type DbHandle } from '@updown/runtime';
import { waitFor } from '@updown/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from '../config';
import { startPlatform } from '../platform';
import { testPlatformEnv } from '../testing/test-env';
import { localClusterUnavailable, startLocalCluster, type LocalCluster } from './local-cluster';

/**
 * The engine on a real pg_auto_failover cluster (a monitor, a primary and a synchronous standby on
 * loopback), one cluster for the file, in order:
 * - the engine's pool through two planned failovers back and forth while a writer keeps writing:
 *   every write acknowledged is on the new primary, every refusal in between is one the gateway
 *   answers with 503 and Retry-After (`isDatabaseUnavailable`), and the same pool writes to the new
 *   primary with no restart;
 * - the whole platform over HTTP through a third: sign-ups answer 201 or 503 with Retry-After,
 *   never 500, and every account answered 201 is there afterwards;
 * - the primary lost (SIGKILL to its keeper and server): the standby is promoted, the pool finds
 *   it, and nothing acknowledged is missing. The time from the loss to the first write on the
 *   promoted node is printed (the goal is 10 s).
 * Skipped, naming why, where pg_auto_failover is not installed (`.ci/run` installs it) or the
 * suite cannot run it as the postgres user.
 */

/** How long the waits below allow: a failover and the writes after it. */
const UNTIL = { timeoutMs: 60_000, intervalMs: 50 } as const;

const unavailable = localClusterUnavailable();
if (unavailable) console.warn(`failover tests skipped: ${unavailable}`);

interface Writer {
  readonly acked: number[];
  readonly refusals: unknown[];
  /** performance.now() of each acknowledgement, beside `acked`. */
  readonly ackedAt: number[];
  /** The port of the server each acknowledgement came from, beside `acked`. */
  readonly ackedOn: number[];
  stop(): Promise<void>;
}

/** Writes one row at a time, as fast as answers come, until stopped; a refusal waits 100 ms. */
function startWriter(handle: DbHandle): Writer {
  const acked: number[] = [];
  const ackedAt: number[] = [];
  const ackedOn: number[] = [];
  const refusals: unknown[] = [];
  let running = true;
  const loop = (async () => {
    for (let n = 0; running; n++) {
      try {
        const { rows } = await sql<{ id: number; port: number }>`
          INSERT INTO failover_probe (n) VALUES (${n})
          RETURNING id, current_setting('port')::int AS port`.execute(handle.db);
        acked.push(rows[0]!.id);
        ackedAt.push(performance.now());
        ackedOn.push(rows[0]!.port);
      } catch (error) {
        refusals.push(error);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  })();
  return {
    acked,
    ackedAt,
    ackedOn,
    refusals,
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe.skipIf(unavailable !== undefined)('the engine on a pg_auto_failover cluster', () => {
  let cluster: LocalCluster;
  let handle: DbHandle;

  beforeAll(async () => {
    cluster = await startLocalCluster({ name: 'failover' });
    handle = createDb(cluster.url, { max: 4, applicationName: 'failover-test' });
    await sql`CREATE TABLE failover_probe (id bigserial PRIMARY KEY, n bigint NOT NULL)`.execute(handle.db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
    await cluster?.stop();
  }, 60_000);

  it('finds the writable node of a multi-host URL, and keeps every acknowledged write across two failovers', async () => {
    const first = await cluster.primary();
    const writer = startWriter(handle);
    try {
      await waitFor(() => writer.acked.length >= 50, { what: 'writes on the first primary', ...UNTIL });
      expect(handle.primary?.known()?.port).toBe(first.port);

      let current = first;
      for (let failover = 1; failover <= 2; failover++) {
        const before = writer.acked.length;
        const startedAt = performance.now();
        await cluster.performFailover();
        const promoted = await cluster.settled();
        expect(promoted.port).not.toBe(current.port);
        current = promoted;
        await waitFor(() => writer.acked.length >= before + 50, {
          what: `writes after failover ${failover}`,
          ...UNTIL,
        });
        const firstOnIt = writer.ackedAt.find(
          (_at, i) => i >= before && writer.ackedOn[i] === promoted.port,
        )!;
        console.info(
          `failover ${failover}: to ${promoted.name}; first write on it acknowledged ` +
            `${Math.round(firstOnIt - startedAt)} ms after the failover was asked for; ` +
            `${writer.refusals.length} refused so far`,
        );
        expect(handle.primary?.known()?.port).toBe(promoted.port);
      }
      expect(current.port).toBe(first.port);
    } finally {
      await writer.stop();
    }

    // Every refusal was one a client may retry (503 at the gateway), never another failure.
    const others = writer.refusals.filter((error) => !isDatabaseUnavailable(error));
    expect(others.map(String)).toEqual([]);
    // Back where it started, and every acknowledged write is there.
    expect(handle.primary?.moved()).toBe(2);
    const { rows } = await sql<{ count: string }>`
      SELECT count(*) AS count FROM failover_probe WHERE id = ANY(${writer.acked}::bigint[])`.execute(
      handle.db,
    );
    expect(Number(rows[0]!.count)).toBe(writer.acked.length);
  }, 240_000);

  it('answers the requests that meet a failover with 503 and Retry-After, never 500, and keeps every account it opened', async () => {
    const setup = await testPlatformEnv({ name: 'failover', port: 0 });
    const platform = await startPlatform(loadPlatformConfig({ ...setup.env, DATABASE_URL: cluster.url }), {
      logger: createLogger({ level: 'silent', name: 'failover-test' }),
    });
    const base = `http://127.0.0.1:${platform.gateway.port}`;
    const statuses = new Map<number, number>();
    const opened: string[] = [];
    let running = true;
    const signUps = (async () => {
      for (let i = 0; running; i++) {
        const email = `ha-${i}@example.com`;
        const res = await fetch(`${base}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'Passw0rd-long-1', name: `HA ${i}` }),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) opened.push(email);
        if (res.status === 503) {
          expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
          expect(((await res.json()) as { code: string }).code).toBe('DATABASE_UNAVAILABLE');
        } else {
          await res.arrayBuffer();
        }
      }
    })();
    try {
      await waitFor(() => opened.length >= 20, { what: 'sign-ups before the failover', ...UNTIL });
      const before = opened.length;
      await cluster.performFailover();
      await cluster.settled();
      await waitFor(() => opened.length >= before + 20, { what: 'sign-ups after the failover', ...UNTIL });
    } finally {
      running = false;
      await signUps;
      await platform.stop();
      await setup.cleanUp();
    }
    console.info(`sign-ups across a failover: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()].filter((status) => status !== 201 && status !== 503)).toEqual([]);
    const { rows } = await sql<{ count: number }>`
      SELECT count(*) AS count FROM users WHERE email = ANY(${opened}::text[])`.execute(handle.db);
    expect(rows[0]!.count).toBe(opened.length);
  }, 240_000);

  it('carries on when the primary is lost (SIGKILL to its keeper and PostgreSQL): the standby is promoted and the pool finds it', async () => {
    const lost = await cluster.primary();
    const survivor = cluster.nodes.find((node) => node.port !== lost.port)!;
    const writer = startWriter(handle);
    try {
      await waitFor(() => writer.acked.length >= 50, { what: 'writes before the loss', ...UNTIL });
      const before = writer.acked.length;
      const killedAt = performance.now();
      cluster.kill(lost);
      await cluster.promoted(survivor);
      await waitFor(() => writer.acked.length >= before + 50, {
        what: 'writes on the promoted standby',
        ...UNTIL,
      });
      const firstOnIt = writer.ackedAt.find((_at, i) => i >= before && writer.ackedOn[i] === survivor.port)!;
      console.info(
        `primary lost: first write on the promoted standby acknowledged ` +
          `${Math.round(firstOnIt - killedAt)} ms after the kill; ${writer.refusals.length} refused in between`,
      );
      expect(handle.primary?.known()?.port).toBe(survivor.port);
    } finally {
      await writer.stop();
    }
    const others = writer.refusals.filter((error) => !isDatabaseUnavailable(error));
    expect(others.map(String)).toEqual([]);
    // The standby had every commit the primary acknowledged: synchronous replication.
    const { rows } = await sql<{ count: string }>`
      SELECT count(*) AS count FROM failover_probe WHERE id = ANY(${writer.acked}::bigint[])`.execute(
      handle.db,
    );
    expect(Number(rows[0]!.count)).toBe(writer.acked.length);
  }, 240_000);
});
