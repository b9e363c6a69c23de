import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './platform';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('the single-process platform, in process', () => {
  let database: TestDatabase;
  let platform: RunningPlatform;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadPlatformConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1' });
    platform = await startPlatform(config, { logger: createLogger({ level: 'silent', name: 'test' }) });
  });
  afterAll(async () => {
    await platform.stop();
    await database.drop();
  });

  it('answers health, readiness and Prometheus metrics on its port', async () => {
    const base = `http://127.0.0.1:${platform.gateway.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { database: true, migrations: true } });
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/text\/plain/);
    expect(await metrics.text()).toMatch(/^process_cpu_user_seconds_total\{service="updown"\} /m);
  });
});

/** Starts `npm start`'s entry point as a child process and resolves with its URL once it is up. */
function startChild(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/platform/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      HOST: '127.0.0.1',
      PORT: '0',
      // A console elsewhere than console/dist is never built at start: these tests are about the server.
      CONSOLE_DIR: path.join(os.tmpdir(), 'updown-no-console'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)","msg":"Updown is up"/.exec(output);
      if (match) resolve({ child, url: match[1]!.replace('localhost', '127.0.0.1'), output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`platform exited with ${code} before it was up:\n${output}`)),
    );
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function runScript(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return exitCode(child).then((code) => ({ code, output }));
}

describe('npm start as a process', () => {
  it('refuses a bad variable at start with a message naming it', async () => {
    const result = await runScript('services/platform/src/main.ts', { PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('PORT must be an integer, got "eighty"');
  });

  it('drains and exits 0 on SIGTERM', async () => {
    const database = await createTestDatabase();
    try {
      const { child, url, output } = await startChild({ DATABASE_URL: database.url });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const exited = exitCode(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output()).toContain('shutdown complete');
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
      const { child, url, output } = await startChild(env);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      const whileRunning = await runScript('services/wallet/src/ledger/verify.cli.ts', env);
      expect(whileRunning.output).toMatch(/OK/);
      expect(whileRunning.code).toBe(0);
      const migrate = await runScript('services/runtime/src/db/migrate.cli.ts', {
        ...env,
        LOG_LEVEL: 'info',
      });
      expect(migrate.code).toBe(0);
      expect(migrate.output).toContain('using the embedded PostgreSQL already running');
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      const exited = exitCode(child);
      child.kill('SIGTERM');
      expect(await exited, output()).toBe(0);

      const afterStop = await runScript('services/wallet/src/ledger/verify.cli.ts', env);
      expect(afterStop.code).toBe(0);
      expect(afterStop.output).toMatch(/OK/);
    }, 90_000);
  });
});
