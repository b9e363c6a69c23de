import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';

/** Each service that has no HTTP API of its own runs alone with its operations endpoints. */

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function run(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"address":"(http:\/\/[^"]+)","msg":"operations endpoints listening"/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
  // The bad-variable case never listens; its rejection is expected and not awaited.
  listening.catch(() => undefined);
  return { child, exited, listening, output: () => output };
}

describe.each([
  ['price-ingest', 'services/price-ingest/src/main.ts', 'PRICE_INGEST_PORT'],
  ['settlement', 'services/settlement/src/main.ts', 'SETTLEMENT_PORT'],
])('%s running alone', (_name, script, portVariable) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('serves health, readiness and metrics, and drains on SIGTERM', async () => {
    const service = run(script, { DATABASE_URL: database.url, [portVariable]: '0', LOG_LEVEL: 'info' });
    const address = await service.listening;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${address}/metrics`)).text()).toMatch(/process_cpu_user_seconds_total/);
    service.child.kill('SIGTERM');
    expect(await service.exited, service.output()).toBe(0);
    expect(service.output()).toContain('shutdown complete');
  }, 60_000);

  it('refuses a bad variable with a message naming it', async () => {
    const service = run(script, { DATABASE_URL: database.url, [portVariable]: 'none' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain(`${portVariable} must be an integer, got "none"`);
  });
});
