import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@updown/runtime';
import { createTestDatabase } from '@updown/runtime/testing';
import { startInProcessPlatform, type InProcessPlatform } from './testing/in-process';
import { PLATFORM_SCRIPT, startPlatformProcess } from './testing/platform-process';
import { startServiceProcess } from './testing/service-process';

describe('the single-process platform, in process', () => {
  let started: InProcessPlatform;

  beforeAll(async () => {
    started = await startInProcessPlatform({
      name: 'platform',
      logger: createLogger({ level: 'silent', name: 'test' }),
    });
  });
  afterAll(async () => {
    await started.stop();
  });

  it('answers health, readiness and Prometheus metrics on its port', async () => {
    const base = started.baseUrl;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { database: true, migrations: true } });
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/text\/plain/);
    expect(await metrics.text()).toMatch(/^process_cpu_user_seconds_total\{service="updown"\} /m);
  });
});

describe('the single-process platform with /metrics protected', () => {
  const token = 'Tq4Wm8Zr1Kx6Nv3Bj9Lc2Hp7Fs5Gd0Ya';
  let started: InProcessPlatform;

  beforeAll(async () => {
    started = await startInProcessPlatform({
      name: 'platform-metrics',
      logger: createLogger({ level: 'silent', name: 'test' }),
      env: { METRICS_PORT: '0', METRICS_TOKEN: token },
    });
  });
  afterAll(async () => {
    await started.stop();
  });

  it('serves it on its own port behind the token, and not on the public port', async () => {
    expect((await fetch(`${started.baseUrl}/metrics`)).status).toBe(404);
    const metricsAddress = started.platform.gateway.metricsAddress;
    expect(metricsAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const refused = await fetch(`${metricsAddress}/metrics`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const scraped = await fetch(`${metricsAddress}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(scraped.status).toBe(200);
    // The one registry of the process: every service's series, the gateway's among them.
    expect(await scraped.text()).toMatch(/^process_cpu_user_seconds_total\{service="updown"\} /m);
  });
});

/** Runs an entry point to its exit; answers its exit code and everything it printed. */
async function runScript(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const run = startServiceProcess(
    path.basename(script),
    script,
    { LOG_LEVEL: 'warn', ...env },
    'never logged',
  );
  const code = await run.exited;
  return { code, output: run.output() };
}

describe('npm start as a process', () => {
  it('refuses a bad variable at start with a message naming it', async () => {
    const result = await runScript(PLATFORM_SCRIPT, { PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('PORT must be an integer, got "eighty"');
  });

  it('needs no network: every pair on the OTC feed, only loopback connections, no exchange library loaded', async () => {
    const database = await createTestDatabase();
    try {
      const platform = await startPlatformProcess({
        name: 'platform-offline',
        env: { DATABASE_URL: database.url, LOG_LEVEL: 'info' },
        nodeArgs: [
          '--import',
          pathToFileURL(path.resolve('services/platform/src/testing/loopback-guard.mjs')).href,
        ],
      });
      try {
        // Long enough for the feeds to start, report and tick a few rounds.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const pairs = (await (await fetch(`${platform.baseUrl}/api/market/pairs`)).json()) as {
          provider: string;
          feed_status: string;
        }[];
        expect(pairs.length).toBeGreaterThan(0);
        expect(new Set(pairs.map((p) => p.provider))).toEqual(new Set(['OTC']));
        expect(pairs.every((p) => p.feed_status === 'live')).toBe(true);
        expect(platform.output()).not.toContain('NETWORK ATTEMPT');
        expect(platform.output()).not.toContain('exchange provider started');
      } finally {
        await platform.stop();
      }
    } finally {
      await database.drop();
    }
  });

  it('drains and exits 0 on SIGTERM', async () => {
    const database = await createTestDatabase();
    try {
      const platform = await startPlatformProcess({
        name: 'platform-sigterm',
        env: { DATABASE_URL: database.url },
      });
      try {
        expect((await fetch(`${platform.baseUrl}/healthz`)).status).toBe(200);
        platform.child.kill('SIGTERM');
        expect(await platform.exited).toBe(0);
        expect(platform.output()).toContain('shutdown complete');
      } finally {
        await platform.stop();
      }
    } finally {
      await database.drop();
    }
  });

  describe('with the embedded PostgreSQL (no DATABASE_URL)', () => {
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'updown-platform-'));
    });
    afterAll(async () => {
      await rm(dataDir, { recursive: true, force: true });
    });

    it('lets db:migrate and ledger:verify reach the running database, and run alone after it stops', async () => {
      const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: '0' };
      const platform = await startPlatformProcess({ name: 'platform-embedded', env });
      const url = platform.baseUrl;
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      const whileRunning = await runScript('services/platform/src/verify.cli.ts', env);
      expect(whileRunning.output).toMatch(/OK/);
      expect(whileRunning.code).toBe(0);
      const migrate = await runScript('services/platform/src/migrate.cli.ts', {
        ...env,
        LOG_LEVEL: 'info',
      });
      expect(migrate.code).toBe(0);
      expect(migrate.output).toContain('using the embedded PostgreSQL already running');
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      platform.child.kill('SIGTERM');
      expect(await platform.exited, platform.output()).toBe(0);
      await platform.stop();

      const afterStop = await runScript('services/platform/src/verify.cli.ts', env);
      expect(afterStop.code).toBe(0);
      expect(afterStop.output).toMatch(/OK/);
    }, 90_000);
  });
});
