import type { Registry } from 'prom-client';

/** The current value of a counter or gauge, summed over the series whose labels match; 0 when there are none. */
export async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((entry) => Object.entries(labels).every(([key, value]) => entry.labels[key] === value))
    .reduce((sum, entry) => sum + entry.value, 0);
}
