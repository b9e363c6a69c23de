export { metricValue, waitFor } from '@updown/runtime/testing';
import { MemoryBus, type Logger, type Registry } from '@updown/runtime';
import { eventTopics, type EventTopics } from '@updown/schemas';

export function memoryBus(
  registry: Registry,
  logger: Logger,
  options: { retainedPerPartitionMax?: number } = {},
): MemoryBus<EventTopics> {
  return new MemoryBus({ topics: eventTopics, logger, registry, ...options });
}
