import { describe, expect, it } from 'vitest';
import { ConfigError } from '@updown/runtime';
import { isLoopback, loadScenarioConfig } from './config';
import { Recorder } from './metrics';
import { formatResult } from './report';
import { finishScenario, parseThreshold } from './thresholds';

describe('thresholds in k6 syntax', () => {
  it('parse aggregates, operators and limits', () => {
    expect(parseThreshold('p(95)<250')).toEqual({ aggregate: 'p(95)', operator: '<', limit: 250 });
    expect(parseThreshold('rate<0.01')).toEqual({ aggregate: 'rate', operator: '<', limit: 0.01 });
    expect(parseThreshold('count >= 1')).toEqual({ aggregate: 'count', operator: '>=', limit: 1 });
    expect(() => parseThreshold('p95<250')).toThrow('not a threshold');
  });

  it('judge percentiles by nearest rank, and a failure rate like http_req_failed', () => {
    const recorder = new Recorder();
    for (let ms = 1; ms <= 100; ms++) recorder.http('place', 201, ms);
    recorder.http('place', 500, 1);
    const result = finishScenario('t', recorder, {
      'http_req_duration{name:place}': ['p(95)<96', 'p(99)<99'],
      http_req_failed: ['rate<0.01'],
    });
    expect(result.thresholds.map((t) => [t.expression, t.actual, t.ok])).toEqual([
      ['p(95)<96', 95, true],
      ['p(99)<99', 99, false],
      ['rate<0.01', 1 / 101, true],
    ]);
    expect(result.passed).toBe(false);
  });

  it('fail a threshold on a metric that has no samples', () => {
    const result = finishScenario('t', new Recorder(), {
      tick_delay: ['p(99)<500'],
      ticks_received: ['count>0'],
    });
    expect(result.thresholds.every((t) => !t.ok)).toBe(true);
    expect(formatResult(result)).toContain('FAILED: 2 of 2 thresholds crossed');
  });

  it('count transport errors as failed requests without a latency sample', () => {
    const recorder = new Recorder();
    recorder.http('place', 0, 0);
    recorder.http('place', 201, 10);
    expect(recorder.rate('http_req_failed').rate).toBe(0.5);
    expect(recorder.trend('http_req_duration').count).toBe(1);
  });

  it('count checks into the checks rate and print a passing result', () => {
    const recorder = new Recorder();
    recorder.check('placed', true);
    recorder.check('placed', true);
    const result = finishScenario('t', recorder, { checks: ['rate==1'] });
    expect(result.passed).toBe(true);
    expect(formatResult(result)).toMatch(/ok\s+placed\s+2\s+0/);
    expect(formatResult(result)).toContain('PASSED: 1 thresholds held');
  });
});

describe('the load target', () => {
  it('is loopback only', () => {
    expect(isLoopback('http://127.0.0.1:8080')).toBe(true);
    expect(isLoopback('http://127.4.5.6')).toBe(true);
    expect(isLoopback('http://localhost:9000')).toBe(true);
    expect(isLoopback('http://[::1]:8080')).toBe(true);
    expect(isLoopback('http://10.0.0.5:8080')).toBe(false);
    expect(isLoopback('http://127.0.0.1.example.com')).toBe(false);
  });

  it('defaults to 127.0.0.1:8080 and refuses a remote one unless LOAD_ALLOW_REMOTE=1', () => {
    expect(loadScenarioConfig('smoke', {}).BASE_URL).toBe('http://127.0.0.1:8080');
    expect(() => loadScenarioConfig('smoke', { BASE_URL: 'http://192.168.1.9:8080' })).toThrow(
      'not a loopback address',
    );
    const allowed = loadScenarioConfig('smoke', {
      BASE_URL: 'http://192.168.1.9:8080/',
      LOAD_ALLOW_REMOTE: '1',
    });
    expect(allowed.BASE_URL).toBe('http://192.168.1.9:8080');
  });

  it('bounds every size', () => {
    expect(() => loadScenarioConfig('place-trades', { RATE: '0', USERS: 'many' })).toThrow(ConfigError);
    expect(loadScenarioConfig('place-trades', { RATE: '120' }).RATE).toBe(120);
  });
});
