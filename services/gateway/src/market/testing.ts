import { MemoryBus, type Logger, type Registry } from '@updown/runtime';
import { eventTopics, type EventTopics } from '@updown/schemas';

export function memoryBus(
  registry: Registry,
  logger: Logger,
  options: { retainedPerPartitionMax?: number } = {},
): MemoryBus<EventTopics> {
  return new MemoryBus({ topics: eventTopics, logger, registry, ...options });
}

/** Polls until `predicate` holds; tests wait on conditions, never on fixed sleeps. */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    if (await predicate()) return;
    if (Date.now() >= deadline) throw new Error(`Timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The sum of a counter's or gauge's series whose labels match; 0 when there are none. */
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
