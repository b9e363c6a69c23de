import type { DeadLetterReason, DeadLetterRecord, TopicValidator } from '@updown/schemas';

/** Events travel as UTF-8 JSON: readable with any Kafka tool, and what the AsyncAPI document describes. */
export function encodeEvent(event: unknown): string {
  return JSON.stringify(event);
}

export type Decoded<E> =
  { readonly ok: true; readonly event: E } | { readonly ok: false; readonly problems: string[] };

export function decodeEvent<E>(validator: TopicValidator<E>, value: Buffer | string | null): Decoded<E> {
  if (value === null) return { ok: false, problems: ['message has no value'] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
  } catch (error) {
    return { ok: false, problems: [`not JSON: ${(error as Error).message}`] };
  }
  return validator.check(parsed)
    ? { ok: true, event: parsed }
    : { ok: false, problems: validator.problems(parsed) };
}

const ERROR_LENGTH_MAX = 4000;

export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > ERROR_LENGTH_MAX ? `${text.slice(0, ERROR_LENGTH_MAX - 1)}…` : text;
}

/** Keeps the original bytes exactly: UTF-8 text as is, anything else as base64. */
function encodeValue(value: Buffer | string | null): Pick<DeadLetterRecord, 'value' | 'valueEncoding'> {
  if (value === null) return { value: '', valueEncoding: 'utf8' };
  if (typeof value === 'string') return { value, valueEncoding: 'utf8' };
  const text = value.toString('utf8');
  return Buffer.from(text, 'utf8').equals(value)
    ? { value: text, valueEncoding: 'utf8' }
    : { value: value.toString('base64'), valueEncoding: 'base64' };
}

export function deadLetterRecord(input: {
  topic: string;
  group: string;
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | string | null;
  reason: DeadLetterReason;
  error: string;
  attempts: number;
  failedAtMs: number;
}): DeadLetterRecord {
  return {
    sourceTopic: input.topic,
    group: input.group,
    partition: input.partition,
    offset: input.offset,
    key: input.key,
    reason: input.reason,
    error: input.error.length > ERROR_LENGTH_MAX ? input.error.slice(0, ERROR_LENGTH_MAX) : input.error,
    attempts: input.attempts,
    failedAt: new Date(input.failedAtMs).toISOString(),
    ...encodeValue(input.value),
  };
}
