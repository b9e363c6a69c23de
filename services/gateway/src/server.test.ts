import http from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createMetricsRegistry } from '@updown/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './server';
import { memoryLogger, unreachableDb } from './testing/test-app';

function get(url: string, agent?: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('startGateway', () => {
  const handle = unreachableDb();
  let gateway: RunningGateway | undefined;

  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  async function start(plugins: FastifyPluginAsyncTypebox[] = []) {
    gateway = await startGateway({
      config: {
        HOST: '127.0.0.1',
        PORT: 0,
        CONSOLE_DIR: '/nonexistent',
        CORS_ORIGINS: [],
        BODY_LIMIT_BYTES: 1024 * 1024,
      },
      logger: memoryLogger('silent').logger,
      registry: createMetricsRegistry(),
      db: handle.db,
      readiness: async () => ({ ok: true, checks: {} }),
      plugins,
    });
    return gateway;
  }

  it('listens on loopback with an ephemeral port', async () => {
    const running = await start();
    expect(running.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.port).toBeGreaterThan(0);
    const res = await get(`${running.address}/healthz`);
    expect(res).toEqual({ status: 200, body: '{"status":"ok"}' });
  });

  it('lets an in-flight request finish on close, and idle keep-alive sockets do not hold it', async () => {
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow: FastifyPluginAsyncTypebox = async (app) => {
      app.get('/api/test/slow', async () => {
        entered();
        await released;
        return { done: true };
      });
    };
    const running = await start([slow]);
    const agent = new http.Agent({ keepAlive: true });
    try {
      // An idle keep-alive connection left open by an earlier request.
      await get(`${running.address}/healthz`, agent);

      const inFlight = get(`${running.address}/api/test/slow`);
      await handlerEntered;
      const closed = running.close();
      let closedEarly = false;
      void closed.then(() => (closedEarly = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closedEarly).toBe(false);

      release();
      expect(await inFlight).toEqual({ status: 200, body: '{"done":true}' });
      const started = Date.now();
      await closed;
      expect(Date.now() - started).toBeLessThan(2_000);
      await expect(get(`${running.address}/healthz`)).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });

  it('close is idempotent', async () => {
    const running = await start();
    await Promise.all([running.close(), running.close()]);
    await running.close();
  });
});
