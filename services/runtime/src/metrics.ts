import { Registry, collectDefaultMetrics } from 'prom-client';
import { registerJobMetrics } from './job-meter';
import { registerProcessStallMetrics } from './process-metrics';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';
export { observeDbPool } from './process-metrics';
export { readOncePerScrape } from './scrape-read';

/**
 * One registry per process, handed to every component that records metrics, so that in the single
 * process every service's series are served by one `/metrics` and tests can use a fresh registry.
 */
export function createMetricsRegistry(labels: Record<string, string> = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  // Beside the defaults: event-loop delay at 1 ms resolution and GC pause totals by kind.
  registerProcessStallMetrics(registry);
  // What each periodic job's runs cost the loop and the pool (`job-meter.ts`).
  registerJobMetrics(registry);
  return registry;
}
