import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkExpression, registeredMetrics, REPO_ROOT, type CatalogMetric } from './metric-catalog';

const GRAFANA_DIR = path.join(REPO_ROOT, 'infra', 'grafana');

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: { refId: string; expr: string; datasource?: { uid: string } }[];
}

const dashboard = JSON.parse(readFileSync(path.join(GRAFANA_DIR, 'dashboards', 'updown.json'), 'utf8')) as {
  uid: string;
  title: string;
  panels: Panel[];
};
const dataPanels = dashboard.panels.filter((p) => p.type !== 'row');
const targets = dataPanels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, target })));

let catalog: Map<string, CatalogMetric>;
beforeAll(async () => {
  catalog = await registeredMetrics();
});

describe('the Grafana dashboard', () => {
  it('queries, in every panel, only metrics and labels the code registers', () => {
    expect(targets.length).toBeGreaterThan(20);
    const problems = targets.flatMap(({ panel, target }) =>
      checkExpression(catalog, target.expr).problems.map((p) => `${panel.title} ${target.refId}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('has the panels operators look for', () => {
    const used = new Set(targets.flatMap(({ target }) => checkExpression(catalog, target.expr).metrics));
    for (const metric of [
      'updown_trades_placed_total',
      'updown_trades_settled_total',
      'updown_settlement_lag_seconds',
      'updown_open_exposure_cents',
      'updown_ws_clients',
      'updown_http_request_duration_seconds',
      'updown_http_requests_total',
      'updown_bus_consumer_lag',
      'updown_bus_dead_letters_total',
      'updown_house_pnl_cents',
      'updown_outbox_backlog',
      'updown_ledger_last_verify_ok',
      'updown_risk_exposure_cents',
      'updown_risk_exposure_cap_cents',
      'updown_risk_pair_suspended',
      'updown_risk_refusals_total',
    ]) {
      expect(used, metric).toContain(metric);
    }
  });

  it('reads from the provisioned Prometheus data source, with panels that do not overlap', () => {
    const datasources = parse(
      readFileSync(path.join(GRAFANA_DIR, 'provisioning', 'datasources', 'prometheus.yml'), 'utf8'),
    ) as { datasources: { uid: string; type: string; url: string }[] };
    expect(datasources.datasources).toEqual([
      expect.objectContaining({ uid: 'prometheus', type: 'prometheus', url: 'http://prometheus:9090' }),
    ]);
    for (const { panel, target } of targets) {
      expect(panel.datasource?.uid, panel.title).toBe('prometheus');
      expect(target.datasource?.uid ?? 'prometheus', panel.title).toBe('prometheus');
    }
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const panel of dashboard.panels) {
      const { x, y, w, h } = panel.gridPos;
      expect(x + w, panel.title).toBeLessThanOrEqual(24);
      for (let row = y; row < y + h; row++) {
        for (let col = x; col < x + w; col++) {
          const cell = `${row}:${col}`;
          expect(cells.has(cell), `${panel.title} overlaps at ${cell}`).toBe(false);
          cells.add(cell);
        }
      }
    }
  });

  it('is the file the dashboard provider loads', () => {
    const providers = parse(
      readFileSync(path.join(GRAFANA_DIR, 'provisioning', 'dashboards', 'updown.yml'), 'utf8'),
    ) as { providers: { type: string; options: { path: string } }[] };
    expect(providers.providers).toEqual([
      expect.objectContaining({
        type: 'file',
        options: expect.objectContaining({ path: '/etc/grafana/dashboards' }),
      }),
    ]);
    expect(dashboard.uid).toBe('updown-overview');
  });
});
