import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { eventTopics, type EventTopics, type TopicRegistry } from '@updown/schemas';
import type { Clock } from '../clock';
import type { RuntimeConfig } from '../config/runtime-config';
import type { Bus, RetryPolicy } from './bus';
import { createKafkaBus, type KafkaBusOptions } from './kafka-bus';
import { MemoryBus, type MemoryBusOptions } from './memory-bus';

export interface CreateBusDeps<R extends TopicRegistry> {
  readonly logger: Logger;
  readonly registry: Registry;
  /** The topics the bus carries; Updown's own registry unless given. */
  readonly topics?: R;
  readonly clock?: Clock;
  readonly retry?: Partial<RetryPolicy>;
  readonly memory?: Pick<MemoryBusOptions<R>, 'partitions' | 'retainedPerPartitionMax'>;
  readonly kafka?: Omit<
    KafkaBusOptions<R>,
    'topics' | 'logger' | 'registry' | 'brokers' | 'clientId' | 'clock' | 'retry'
  >;
}

/** The bus `BUS` asks for: in-memory (default, one process) or Kafka (connected, topics ensured). */
export async function createBus<R extends TopicRegistry = EventTopics>(
  config: Pick<RuntimeConfig, 'BUS' | 'KAFKA_BROKERS' | 'KAFKA_CLIENT_ID'>,
  deps: CreateBusDeps<R>,
): Promise<Bus<R>> {
  const topics = deps.topics ?? (eventTopics as unknown as R);
  const logger = deps.logger.child({ component: 'bus', adapter: config.BUS });
  const common = { topics, logger, registry: deps.registry, clock: deps.clock, retry: deps.retry };
  if (config.BUS === 'kafka') {
    const bus = await createKafkaBus({
      ...common,
      ...deps.kafka,
      brokers: config.KAFKA_BROKERS,
      clientId: config.KAFKA_CLIENT_ID,
    });
    logger.info({ brokers: config.KAFKA_BROKERS }, 'bus connected to Kafka');
    return bus;
  }
  return new MemoryBus({ ...common, ...deps.memory });
}
