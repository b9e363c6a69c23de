export {
  DEFAULT_RETRY_POLICY,
  GROUP_NAME_LENGTH_MAX,
  KEY_LENGTH_MAX,
  type Bus,
  type BusMessage,
  type EventHandler,
  type MessageMeta,
  type RetryPolicy,
  type SubscribeOptions,
  type Subscription,
} from './bus';
export { createBus, type CreateBusDeps } from './create-bus';
export {
  BusCapacityExceeded,
  BusClosed,
  BusError,
  BusUnavailable,
  InvalidEvent,
  InvalidSubscription,
  UnknownTopic,
} from './errors';
export {
  createKafkaBus,
  KAFKA_BUS_DEFAULTS,
  KafkaBus,
  type KafkaBusOptions,
  type KafkaConsumerTuning,
} from './kafka-bus';
export { MEMORY_BUS_DEFAULTS, MemoryBus, type MemoryBusOptions } from './memory-bus';
export { partitionForKey } from './partitioner';
export { retryDelayMs } from './retry';
