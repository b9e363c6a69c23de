export { EventEnvelope, TopicEnvelope } from './envelope';
export { isDateTime, isUuid, registerEventFormats } from './formats';
export {
  MarketTickPayload,
  TradeDirection,
  TradeOpenedPayload,
  TradeSettledPayload,
  TradeStatus,
} from './payloads';
export {
  DEAD_LETTER_SUFFIX,
  DeadLetterReason,
  DeadLetterRecord,
  deadLetterTopic,
  defineTopic,
  eventTopics,
  isDeadLetterTopic,
  isTopicName,
  topicNames,
  type EventOf,
  type EventTopics,
  type PayloadOf,
  type TopicDefinition,
  type TopicEvent,
  type TopicName,
  type TopicOf,
  type TopicPayload,
  type TopicRegistry,
} from './topics';
export {
  compileTopicValidators,
  compileValidator,
  createEvent,
  createTopicEvent,
  deadLetterValidator,
  eventValidators,
  EventValidationError,
  UnknownTopicError,
  validateEvent,
  VALIDATION_PROBLEMS_MAX,
  type CreateEventOptions,
  type TopicValidator,
  type TopicValidators,
} from './validation';
export { buildAsyncApiDocument, channelId, renderAsyncApiDocument, type AsyncApiOptions } from './asyncapi';
