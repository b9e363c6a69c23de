import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TObject } from '@sinclair/typebox';
import {
  DeadLetterRecord,
  eventTopics,
  type EventOf,
  type EventTopics,
  type PayloadOf,
  type TopicEvent,
  type TopicName,
  type TopicOf,
  type TopicPayload,
  type TopicRegistry,
} from './topics';

/** At most this many problems are reported per value: enough to fix it, short enough to log. */
export const VALIDATION_PROBLEMS_MAX = 10;

export class EventValidationError extends Error {
  readonly code = 'EVENT_INVALID';
  constructor(
    readonly topic: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid event for ${topic}: ${problems.join('; ')}`);
    this.name = 'EventValidationError';
  }
}

export class UnknownTopicError extends Error {
  readonly code = 'UNKNOWN_TOPIC';
  constructor(readonly topic: string) {
    super(`Unknown topic "${topic}"`);
    this.name = 'UnknownTopicError';
  }
}

export interface TopicValidator<E> {
  check(value: unknown): value is E;
  /** Readable problems (`/payload/price: Expected number`), empty when the value is valid. */
  problems(value: unknown): string[];
  /** Throws `EventValidationError` unless the value is valid. */
  assert(value: unknown): asserts value is E;
}

export type TopicValidators<R extends TopicRegistry> = {
  readonly [T in TopicOf<R>]: TopicValidator<TopicEvent<R, T>>;
};

function describeProblems(check: TypeCheck<TObject>, value: unknown): string[] {
  const problems: string[] = [];
  for (const error of check.Errors(value)) {
    problems.push(`${error.path === '' ? '/' : error.path}: ${error.message}`);
    if (problems.length >= VALIDATION_PROBLEMS_MAX) break;
  }
  return problems;
}

export function compileValidator<E>(name: string, schema: TObject): TopicValidator<E> {
  const check = TypeCompiler.Compile(schema);
  return {
    check: (value: unknown): value is E => check.Check(value),
    problems: (value) => (check.Check(value) ? [] : describeProblems(check, value)),
    assert(value: unknown): asserts value is E {
      if (!check.Check(value)) throw new EventValidationError(name, describeProblems(check, value));
    },
  };
}

/** Compiles every topic's envelope schema once; validation is then a plain function call. */
export function compileTopicValidators<R extends TopicRegistry>(registry: R): TopicValidators<R> {
  const validators: Record<string, TopicValidator<unknown>> = {};
  for (const [topic, definition] of Object.entries(registry)) {
    validators[topic] = compileValidator(topic, definition.envelope);
  }
  return validators as TopicValidators<R>;
}

export const eventValidators: TopicValidators<EventTopics> = compileTopicValidators(eventTopics);

export const deadLetterValidator: TopicValidator<DeadLetterRecord> = compileValidator(
  'dead letter',
  DeadLetterRecord,
);

export interface CreateEventOptions {
  producer: string;
  /** Defaults to a random UUID; pass one for deterministic tests or to derive it from a business key. */
  id?: string;
  /** Defaults to now. */
  occurredAt?: Date | string | number;
}

function toIsoString(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid occurredAt: ${String(value)}`);
  return date.toISOString();
}

/** Builds and validates an event of a registry's topic; throws `EventValidationError` if it is not valid. */
export function createTopicEvent<R extends TopicRegistry, T extends TopicOf<R>>(
  registry: R,
  topic: T,
  payload: TopicPayload<R, T>,
  options: CreateEventOptions,
  validators: TopicValidators<R> = compileTopicValidators(registry),
): TopicEvent<R, T> {
  const definition = registry[topic];
  if (!definition) throw new UnknownTopicError(topic);
  const event = {
    id: options.id ?? globalThis.crypto.randomUUID(),
    type: definition.type,
    version: definition.version,
    occurredAt: toIsoString(options.occurredAt ?? Date.now()),
    producer: options.producer,
    payload,
  };
  const validator: TopicValidator<TopicEvent<R, T>> = validators[topic];
  validator.assert(event);
  return event;
}

/** Builds and validates an event for one of Updown's topics. */
export function createEvent<T extends TopicName>(
  topic: T,
  payload: PayloadOf<T>,
  options: CreateEventOptions,
): EventOf<T> {
  return createTopicEvent(eventTopics, topic, payload, options, eventValidators);
}

/** Throws `UnknownTopicError` or `EventValidationError` unless `value` is a valid event for `topic`. */
export function validateEvent<T extends TopicName>(topic: T, value: unknown): asserts value is EventOf<T> {
  if (!Object.hasOwn(eventValidators, topic)) throw new UnknownTopicError(topic);
  const validator: TopicValidator<EventOf<T>> = eventValidators[topic];
  validator.assert(value);
}
