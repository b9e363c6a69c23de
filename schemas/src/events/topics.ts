import { Type, type Static, type TSchema, type TObject } from '@sinclair/typebox';
import { TopicEnvelope, type EventEnvelope } from './envelope';
import { MarketTickPayload, TradeOpenedPayload, TradeSettledPayload } from './payloads';

/**
 * The topic registry: every topic on the bus, its event type, version, payload schema and what
 * its partition key is. Topic names carry their version (`trades.opened.v1`); a breaking change
 * is a new topic, never an edit of an existing payload beyond adding fields.
 */

export interface TopicDefinition<P extends TSchema = TSchema> {
  /** The envelope's `type` for events on this topic. */
  readonly type: string;
  /** The envelope's `version`; equal to the topic name's `vN` suffix. */
  readonly version: number;
  readonly payload: P;
  /** The full envelope schema for this topic: what producers send and consumers validate. */
  readonly envelope: TObject;
  /** Which payload field the partition key is taken from; events with one key keep their order. */
  readonly key: string;
  readonly description: string;
}

export type TopicRegistry = Readonly<Record<string, TopicDefinition>>;

export function defineTopic<const T extends string, const V extends number, P extends TSchema>(definition: {
  type: T;
  version: V;
  payload: P;
  key: string;
  description: string;
  title: string;
}): TopicDefinition<P> {
  return {
    type: definition.type,
    version: definition.version,
    payload: definition.payload,
    envelope: TopicEnvelope(definition.type, definition.version, definition.payload, {
      title: definition.title,
      description: definition.description,
    }),
    key: definition.key,
    description: definition.description,
  };
}

export const eventTopics = {
  'market.ticks.v1': defineTopic({
    type: 'market.tick',
    version: 1,
    payload: MarketTickPayload,
    key: 'pair',
    title: 'MarketTick',
    description: 'A price observation for one pair, published by price-ingest several times per second.',
  }),
  'trades.opened.v1': defineTopic({
    type: 'trade.opened',
    version: 1,
    payload: TradeOpenedPayload,
    key: 'pair',
    title: 'TradeOpened',
    description:
      'A trade was accepted and its stake held; written to the outbox by order in the same transaction.',
  }),
  'trades.settled.v1': defineTopic({
    type: 'trade.settled',
    version: 1,
    payload: TradeSettledPayload,
    key: 'pair',
    title: 'TradeSettled',
    description: 'A trade reached its final status (won, lost, draw or void) and the ledger was updated.',
  }),
} as const satisfies TopicRegistry;

export type EventTopics = typeof eventTopics;
export type TopicName = keyof EventTopics & string;
/** Any topic of a registry, as a string. */
export type TopicOf<R extends TopicRegistry> = keyof R & string;
export type TopicPayload<R extends TopicRegistry, T extends TopicOf<R>> = Static<R[T]['payload']>;
export type TopicEvent<R extends TopicRegistry, T extends TopicOf<R>> = EventEnvelope<TopicPayload<R, T>>;
export type PayloadOf<T extends TopicName> = TopicPayload<EventTopics, T>;
export type EventOf<T extends TopicName> = TopicEvent<EventTopics, T>;

export const topicNames = Object.keys(eventTopics) as TopicName[];

export function isTopicName(value: string): value is TopicName {
  return Object.hasOwn(eventTopics, value);
}

/**
 * Dead letters: a message a consumer group could not process (it failed validation, or its
 * handler kept failing) is written to `<topic>.dlq` as a `DeadLetterRecord`, and the group moves on.
 */
export const DEAD_LETTER_SUFFIX = '.dlq';

export function deadLetterTopic(topic: string): string {
  return `${topic}${DEAD_LETTER_SUFFIX}`;
}

export function isDeadLetterTopic(topic: string): boolean {
  return topic.endsWith(DEAD_LETTER_SUFFIX);
}

export const DeadLetterReason = Type.Union([Type.Literal('invalid'), Type.Literal('handler_failed')], {
  description:
    '`invalid`: not JSON or not a valid event for the topic; `handler_failed`: every attempt threw',
});
export type DeadLetterReason = Static<typeof DeadLetterReason>;

export const DeadLetterRecord = Type.Object(
  {
    sourceTopic: Type.String({ minLength: 1 }),
    group: Type.String({ minLength: 1, description: 'The consumer group that gave up on the message' }),
    partition: Type.Integer({ minimum: 0 }),
    offset: Type.String({ pattern: '^[0-9]+$', description: 'Offset in the source partition' }),
    key: Type.Union([Type.String(), Type.Null()]),
    reason: DeadLetterReason,
    error: Type.String({ maxLength: 4000, description: 'Validation problems or the last handler error' }),
    attempts: Type.Integer({
      minimum: 0,
      description: 'Handler attempts made (0 when the message was invalid)',
    }),
    failedAt: Type.String({ format: 'date-time' }),
    value: Type.String({ description: 'The original message value, encoded as `valueEncoding` says' }),
    valueEncoding: Type.Union([Type.Literal('utf8'), Type.Literal('base64')]),
  },
  { title: 'DeadLetterRecord' },
);
export type DeadLetterRecord = Static<typeof DeadLetterRecord>;
