import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@updown/runtime';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { loadPlatformConfig } from '../../services/platform/src/config';
import { startPlatform, type RunningPlatform } from '../../services/platform/src/platform';
import { formatResult } from './report';
import { runSmoke } from './scenarios/smoke';

/**
 * `npm run load:smoke` against the platform `npm start` runs, started here in this process on a
 * fresh database: the short smoke must pass against a platform that has just come up.
 */
describe('npm run load:smoke against a freshly started platform', () => {
  let database: TestDatabase;
  let dataDir: string;
  let platform: RunningPlatform;

  beforeAll(async () => {
    [database, dataDir] = await Promise.all([
      createTestDatabase(),
      mkdtemp(path.join(os.tmpdir(), 'updown-load-smoke-')),
    ]);
    const config = loadPlatformConfig({
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CONSOLE_DIR: path.join(dataDir, 'no-console'),
      JWT_SECRET: randomBytes(32).toString('hex'),
    });
    platform = await startPlatform(config, { logger: createLogger({ level: 'silent', name: 'test' }) });
  });

  afterAll(async () => {
    await platform?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('passes every check and threshold', async () => {
    const result = await runSmoke({ baseUrl: `http://127.0.0.1:${platform.gateway.port}` });
    const report = formatResult(result);
    expect(result.passed, report).toBe(true);
    const checks = Object.fromEntries(result.recorder.checks);
    expect(checks['a demo trade is accepted on every pair'], report).toEqual({ passes: 6, fails: 0 });
    expect(checks['the active list holds every placed trade'], report).toEqual({ passes: 1, fails: 0 });
    expect(checks['the market socket streams ticks of BTCUSDT'], report).toEqual({ passes: 1, fails: 0 });
    expect(result.thresholds.map((threshold) => threshold.metric)).toContain('http_req_failed');
  }, 30_000);
});
