import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@updown/runtime';
import { startInProcessPlatform, type InProcessPlatform } from '@updown/platform/testing';
import { formatResult } from './report';
import { runSmoke } from './scenarios/smoke';

/**
 * `npm run load:smoke` against the platform `npm start` runs, started here in this process on a
 * fresh database: the short smoke must pass against a platform that has just come up.
 */
describe('npm run load:smoke against a freshly started platform', () => {
  let started: InProcessPlatform;

  beforeAll(async () => {
    started = await startInProcessPlatform({
      name: 'load-smoke',
      logger: createLogger({ level: 'silent', name: 'test' }),
    });
  });

  afterAll(async () => {
    await started?.stop();
  });

  it('passes every check and threshold', async () => {
    const result = await runSmoke({ baseUrl: started.baseUrl });
    const report = formatResult(result);
    expect(result.passed, report).toBe(true);
    const checks = Object.fromEntries(result.recorder.checks);
    expect(checks['a demo trade is accepted on every pair'], report).toEqual({ passes: 6, fails: 0 });
    expect(checks['the active list holds every placed trade'], report).toEqual({ passes: 1, fails: 0 });
    expect(checks['the market socket streams ticks of BTCUSDT'], report).toEqual({ passes: 1, fails: 0 });
    expect(result.thresholds.map((threshold) => threshold.metric)).toContain('http_req_failed');
  }, 30_000);
});
