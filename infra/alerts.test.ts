import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkExpression, registeredMetrics, REPO_ROOT, type CatalogMetric } from './metric-catalog';

const PROMETHEUS_DIR = path.join(REPO_ROOT, 'infra', 'prometheus');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const readYaml = <T>(file: string): T => parse(readFileSync(path.join(PROMETHEUS_DIR, file), 'utf8')) as T;
const rules = readYaml<{ groups: { name: string; rules: Rule[] }[] }>('alerts.yml').groups.flatMap(
  (g) => g.rules,
);

let catalog: Map<string, CatalogMetric>;
beforeAll(async () => {
  catalog = await registeredMetrics();
});

describe('the metric catalog read from the sources', () => {
  it('finds the services metrics with their types and labels', () => {
    expect(catalog.get('updown_http_requests_total')).toMatchObject({
      type: 'counter',
      labels: new Set(['method', 'route', 'status_code']),
    });
    expect(catalog.get('updown_settlement_lag_seconds')?.type).toBe('histogram');
    expect(catalog.get('updown_bus_consumer_lag')?.labels).toEqual(new Set(['topic', 'group']));
    expect(catalog.get('updown_open_exposure_cents')?.labels).toEqual(
      new Set(['pair', 'direction', 'account']),
    );
    expect(catalog.get('updown_ledger_last_verify_ok')?.type).toBe('gauge');
    expect(catalog.get('process_cpu_seconds_total')?.type).toBe('counter');
    expect([...catalog.keys()].filter((name) => name.startsWith('updown_')).length).toBeGreaterThan(40);
  });

  it('refuses unknown metrics, unknown labels, wrong suffixes and bad syntax', () => {
    const problems = (expr: string) => checkExpression(catalog, expr).problems;
    expect(problems('sum(rate(updown_http_requests_total{status_code=~"5.."}[5m]))')).toEqual([]);
    expect(problems('rate(updown_http_request_total[5m])')).toEqual([
      'updown_http_request_total is not a metric the code registers',
    ]);
    expect(problems('updown_ws_clients{status="x"}')[0]).toMatch(/label "status" is not one the metric has/);
    expect(problems('sum by (topic) (updown_ws_clients)')).toEqual([
      'grouping by "topic", which none of its metrics has',
    ]);
    expect(problems('updown_ws_clients_bucket')).toEqual([
      'updown_ws_clients_bucket is not a metric the code registers',
    ]);
    expect(problems('sum(rate(updown_ws_clients[5m]) by')[0]).toMatch(/does not parse/);
    expect(problems('vector(1)')).toEqual(['names no metric']);
  });
});

describe('alerts.yml', () => {
  it('is loaded by prometheus.yml', () => {
    expect(readYaml<{ rule_files: string[] }>('prometheus.yml').rule_files).toEqual(['alerts.yml']);
  });

  it('has uniquely named alerts, each with a severity, a summary and a description', () => {
    const names = rules.map((r) => r.alert);
    expect(names.every((n) => typeof n === 'string' && /^[A-Z][A-Za-z]+$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      if (rule.for !== undefined) expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
    }
  });

  it('names only metrics and labels the code registers, in expressions that parse', () => {
    const problems = rules.flatMap((rule) =>
      checkExpression(catalog, rule.expr).problems.map((p) => `${rule.alert}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('covers what operators must hear about', () => {
    const used = new Set(rules.flatMap((rule) => checkExpression(catalog, rule.expr).metrics));
    for (const metric of [
      'updown_settlement_lag_seconds',
      'updown_bus_consumer_lag',
      'updown_http_requests_total',
      'updown_ledger_last_verify_ok',
      'updown_ledger_verify_failures_total',
      'updown_bus_dead_letters_total',
      'updown_outbox_backlog',
      'updown_risk_pair_suspended',
      'updown_risk_exposure_cap_cents',
      'updown_risk_refusals_total',
      'updown_db_primary_changes_total',
      'updown_db_primary_known',
      'updown_db_replication_lag_seconds',
      'up',
    ]) {
      expect(used, metric).toContain(metric);
    }
  });
});

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const hasPromtool = promtool.status === 0;

// promtool ships with Prometheus, not with npm; where it is on PATH its own checks run too.
describe('promtool', () => {
  const run = (...args: string[]) => {
    const result = spawnSync('promtool', args, { cwd: PROMETHEUS_DIR, encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  it.runIf(hasPromtool)('accepts prometheus.yml and the rules it loads (skipped without promtool)', () => {
    const result = run('check', 'config', 'prometheus.yml');
    expect(result.output).toContain('SUCCESS');
    expect(result.status).toBe(0);
  });

  it.runIf(hasPromtool)(
    'fires each alert as alerts.promtool-test.yml expects (skipped without promtool)',
    () => {
      const result = run('test', 'rules', 'alerts.promtool-test.yml');
      expect(result.output).toContain('SUCCESS');
      expect(result.status).toBe(0);
    },
  );
});
