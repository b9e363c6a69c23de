import type { TSchema } from '@sinclair/typebox';
import { DeadLetterRecord, deadLetterTopic, eventTopics, type TopicRegistry } from './topics';

/**
 * Builds an AsyncAPI 3.0 document from a topic registry: one channel per topic and one per
 * dead-letter topic, each with its Kafka binding (partition count) and the full envelope schema
 * as the message payload. The committed `schemas/asyncapi.json` is this document for
 * `eventTopics`; a Kafka-protocol mock broker (mokapi) reads it to create the topics and to reject
 * messages that do not match their schema.
 */

export interface AsyncApiOptions {
  /** `host:port` of the Kafka server the document declares. */
  serverHost?: string;
  /** Partitions per topic, written to each channel's Kafka binding. */
  partitions?: number;
  title?: string;
  documentVersion?: string;
}

const KAFKA_BINDING_VERSION = '0.5.0';
const DEFAULT_PARTITIONS = 8;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** TypeBox schemas are JSON Schema plus symbol-keyed metadata; a JSON round trip keeps only the former. */
function toJsonSchema(schema: TSchema): Json {
  return JSON.parse(JSON.stringify(schema)) as Json;
}

/** `trades.opened.v1` → `tradesOpenedV1`: AsyncAPI 3 ids may not contain dots. */
export function channelId(topic: string): string {
  return topic
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
    .join('');
}

function kafkaChannelBinding(topic: string, partitions: number): Json {
  return { kafka: { topic, partitions, bindingVersion: KAFKA_BINDING_VERSION } };
}

function message(
  name: string,
  title: string,
  description: string,
  payload: TSchema,
  keyDescription: string,
): Json {
  return {
    name,
    title,
    summary: description,
    contentType: 'application/json',
    payload: toJsonSchema(payload),
    bindings: {
      kafka: { key: { type: 'string', description: keyDescription }, bindingVersion: KAFKA_BINDING_VERSION },
    },
  };
}

function addChannel(
  doc: { channels: Record<string, Json>; operations: Record<string, Json> },
  topic: string,
  messageName: string,
  description: string,
  partitions: number,
): void {
  const id = channelId(topic);
  doc.channels[id] = {
    address: topic,
    description,
    messages: { [messageName]: { $ref: `#/components/messages/${messageName}` } },
    bindings: kafkaChannelBinding(topic, partitions),
  };
  const capitalised = id[0]!.toUpperCase() + id.slice(1);
  const channelRef = { $ref: `#/channels/${id}` };
  const messageRefs = [{ $ref: `#/channels/${id}/messages/${messageName}` }];
  // mokapi 0.52 dereferences the Kafka binding of every receive operation, so each operation has one.
  const bindings = { kafka: { bindingVersion: KAFKA_BINDING_VERSION } };
  doc.operations[`publish${capitalised}`] = {
    action: 'send',
    channel: channelRef,
    messages: messageRefs,
    bindings,
  };
  doc.operations[`consume${capitalised}`] = {
    action: 'receive',
    channel: channelRef,
    messages: messageRefs,
    bindings,
  };
}

export function buildAsyncApiDocument(
  registry: TopicRegistry = eventTopics,
  options: AsyncApiOptions = {},
): Record<string, Json> {
  const partitions = options.partitions ?? DEFAULT_PARTITIONS;
  const doc = {
    channels: {} as Record<string, Json>,
    operations: {} as Record<string, Json>,
    messages: {} as Record<string, Json>,
  };
  for (const [topic, definition] of Object.entries(registry)) {
    const messageName = definition.envelope.title ?? channelId(topic);
    doc.messages[messageName] = message(
      messageName,
      `${definition.type} v${definition.version}`,
      definition.description,
      definition.envelope,
      `The event's \`payload.${definition.key}\`; events with one key are delivered in order`,
    );
    addChannel(doc, topic, messageName, definition.description, partitions);
  }
  doc.messages.DeadLetter = message(
    'DeadLetter',
    'Dead letter',
    'A message a consumer group gave up on, with the reason and the original value',
    DeadLetterRecord,
    'The key of the original message',
  );
  for (const topic of Object.keys(registry)) {
    addChannel(doc, deadLetterTopic(topic), 'DeadLetter', `Dead letters of ${topic}`, partitions);
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: options.title ?? 'Updown events',
      version: options.documentVersion ?? '1.0.0',
      description:
        'Events on the Updown bus. Every message is a JSON envelope {id, type, version, occurredAt, producer, ' +
        'payload}. Generated from schemas/src/events by `npm run schemas:asyncapi`; do not edit by hand.',
    },
    defaultContentType: 'application/json',
    servers: {
      kafka: {
        host: options.serverHost ?? '127.0.0.1:9092',
        protocol: 'kafka',
        description: 'The Kafka cluster (or a Kafka-protocol mock broker in development and tests)',
      },
    },
    channels: doc.channels,
    operations: doc.operations,
    components: { messages: doc.messages },
  };
}

/** The document as committed: stable key order, two-space indentation, trailing newline. */
export function renderAsyncApiDocument(
  registry: TopicRegistry = eventTopics,
  options: AsyncApiOptions = {},
): string {
  return `${JSON.stringify(buildAsyncApiDocument(registry, options), null, 2)}\n`;
}
