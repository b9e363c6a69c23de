import { createMetricsRegistry } from '@updown/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../server';
import { memoryLogger, testApp, unreachableDb } from '../testing/test-app';

const TOKEN = 'Hs8Kq2Wv5Nz1Xb7Lc4Jt9Rm3Pf6Gd0Ye';

describe('/metrics behind METRICS_TOKEN', () => {
  it('refuses a scrape without the token, or with another, and serves one with it', async () => {
    const t = testApp({ config: { METRICS_TOKEN: TOKEN } });
    try {
      const scrape = (authorization?: string) =>
        t.app.inject({ url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      for (const authorization of [
        undefined,
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(1)}`,
        TOKEN,
        'Bearer ',
      ]) {
        const refused = await scrape(authorization);
        expect(refused.statusCode, String(authorization)).toBe(401);
        expect(refused.json()).toEqual({ detail: expect.stringContaining('token'), code: 'UNAUTHORIZED' });
        expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(refused.body).not.toContain('process_cpu');
      }
      const served = await scrape(`Bearer ${TOKEN}`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toContain('text/plain');
      expect(served.body).toContain('process_cpu_user_seconds_total');
      expect((await scrape(`bearer  ${TOKEN}`)).statusCode).toBe(200);
      // A refused scrape is logged where probes of the other routes are, at info.
      const refusals = t.logs().filter((l) => l.route === '/metrics' && l.statusCode === 401);
      expect(refusals.every((l) => l.level === 30)).toBe(true);
      expect(refusals.length).toBeGreaterThan(0);
      expect(JSON.stringify(t.logs())).not.toContain(TOKEN);
    } finally {
      await t.close();
    }
  });

  it('stays open without a token, as in development', async () => {
    const t = testApp();
    try {
      expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('/metrics on METRICS_PORT', () => {
  const handle = unreachableDb();
  let gateway: RunningGateway | undefined;

  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  async function start(token?: string) {
    gateway = await startGateway({
      config: {
        HOST: '127.0.0.1',
        PORT: 0,
        CONSOLE_DIR: '/nonexistent',
        CORS_ORIGINS: [],
        BODY_LIMIT_BYTES: 1024 * 1024,
        METRICS_PORT: 0,
        METRICS_HOST: '127.0.0.1',
        METRICS_TOKEN: token,
      },
      logger: memoryLogger('silent').logger,
      registry: createMetricsRegistry(),
      db: handle.db,
      readiness: async () => ({ ok: true, checks: {} }),
    });
    return gateway;
  }

  it('serves it on its own listener on loopback, and the public port answers 404', async () => {
    const running = await start();
    expect(running.metricsAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.metricsAddress).not.toBe(running.address);
    const onPublic = await fetch(`${running.address}/metrics`);
    expect(onPublic.status).toBe(404);
    expect(await onPublic.json()).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
    expect((await fetch(`${running.address}/healthz`)).status).toBe(200);

    const scraped = await fetch(`${running.metricsAddress}/metrics`);
    expect(scraped.status).toBe(200);
    // The public port's traffic is what it shows.
    expect(await scraped.text()).toMatch(
      /updown_http_requests_total\{method="GET",route="unmatched",status_code="404"\} 1/,
    );
    const other = await fetch(`${running.metricsAddress}/healthz`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
  });

  it('still asks for the token there when both are set, and closes with the gateway', async () => {
    const running = await start(TOKEN);
    const metricsAddress = running.metricsAddress!;
    expect((await fetch(`${metricsAddress}/metrics`)).status).toBe(401);
    const served = await fetch(`${metricsAddress}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(served.status).toBe(200);
    await served.text();
    await running.close();
    await expect(fetch(`${metricsAddress}/metrics`)).rejects.toThrow();
  });
});
