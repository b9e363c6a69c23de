import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from './metrics';
import { startOpsServer, type OpsServer } from './ops-server';
import { createTestDatabase, type TestDatabase } from './testing';

describe('operations endpoints of a service running alone', () => {
  let database: TestDatabase;
  let server: OpsServer;
  let base: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry: createMetricsRegistry(),
      db: database.db,
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it('answers health, readiness and metrics, and {detail, code} for anything else', async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/process_cpu_user_seconds_total/);
    // The event-loop delay at 1 ms resolution, beside prom-client's defaults.
    expect(metrics).toMatch(/^updown_event_loop_delay_seconds\{quantile="0.99"\} [0-9.e-]+$/m);
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not Found', code: 'NOT_FOUND' });
    expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('is not ready when the database is gone', async () => {
    const other = await createTestDatabase();
    const lonely = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry: createMetricsRegistry(),
      db: other.db,
    });
    await other.drop();
    const res = await fetch(`http://127.0.0.1:${lonely.port}/readyz`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('NOT_READY');
    await lonely.close();
  });
});
