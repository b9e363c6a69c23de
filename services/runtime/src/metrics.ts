import { Registry, collectDefaultMetrics } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One registry per process, handed to every component that records metrics, so that in the single
 * process every service's series are served by one `/metrics` and tests can use a fresh registry.
 */
export function createMetricsRegistry(labels: Record<string, string> = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  return registry;
}
