import { eventTopics, type EventTopics } from '@updown/schemas';
import type { Logger } from '../logger';
import type { Registry } from '../metrics';
import { MemoryBus } from '../bus/memory-bus';

/** The in-memory bus over every topic of the event registry, as the single process runs it. */
export function memoryBus(
  registry: Registry,
  logger: Logger,
  options: { retainedPerPartitionMax?: number } = {},
): MemoryBus<EventTopics> {
  return new MemoryBus({ topics: eventTopics, logger, registry, ...options });
}
