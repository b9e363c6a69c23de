import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { SERVICE_SCRIPTS, startServiceProcess } from './testing/service-process';

/** Each service that has no HTTP API of its own runs alone with its operations endpoints. */

function run(name: string, script: string, env: Record<string, string>) {
  return startServiceProcess(name, script, env, 'operations endpoints listening');
}

describe.each([
  ['price-ingest', SERVICE_SCRIPTS['price-ingest'], 'PRICE_INGEST_PORT'],
  ['settlement', SERVICE_SCRIPTS.settlement, 'SETTLEMENT_PORT'],
])('%s running alone', (name, script, portVariable) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('serves health, readiness and metrics, and drains on SIGTERM', async () => {
    const service = run(name, script, { DATABASE_URL: database.url, [portVariable]: '0', LOG_LEVEL: 'info' });
    const address = await service.address;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${address}/metrics`)).text()).toMatch(/process_cpu_user_seconds_total/);
    service.child.kill('SIGTERM');
    expect(await service.exited, service.output()).toBe(0);
    expect(service.output()).toContain('shutdown complete');
  }, 60_000);

  it('refuses a bad variable with a message naming it', async () => {
    const service = run(name, script, { DATABASE_URL: database.url, [portVariable]: 'none' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain(`${portVariable} must be an integer, got "none"`);
  });
});
