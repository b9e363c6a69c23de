import {
  Type,
  type TLiteral,
  type TObject,
  type TSchema,
  type TString,
  type TInteger,
} from '@sinclair/typebox';
import './formats';

/**
 * The versioned envelope every event travels in. Consumers must accept fields they do not know
 * (schemas only ever grow by adding fields), so neither the envelope nor any payload forbids
 * additional properties: an older consumer reading a newer producer's event keeps working.
 */

export interface EventEnvelope<P = unknown> {
  /** Unique per event; consumers use it to make their handling idempotent. */
  readonly id: string;
  readonly type: string;
  readonly version: number;
  /** ISO 8601 date-time at which the fact happened, as told by the producer's clock. */
  readonly occurredAt: string;
  /** The service that wrote the event, for tracing (`order`, `settlement`, ...). */
  readonly producer: string;
  readonly payload: P;
}

const envelopeFields = {
  id: Type.String({
    format: 'uuid',
    description: 'Unique event id (UUID); the idempotency key for consumers',
  }),
  occurredAt: Type.String({ format: 'date-time', description: 'When the fact happened (ISO 8601)' }),
  producer: Type.String({ minLength: 1, maxLength: 100, description: 'The service that produced the event' }),
};

/** The envelope around any payload schema, with `type` and `version` left open. */
export function EventEnvelope<P extends TSchema>(
  payload: P,
): TObject<{
  id: TString;
  type: TString;
  version: TInteger;
  occurredAt: TString;
  producer: TString;
  payload: P;
}> {
  return Type.Object({
    id: envelopeFields.id,
    type: Type.String({ minLength: 1, maxLength: 200, description: 'Event type, e.g. `trade.opened`' }),
    version: Type.Integer({ minimum: 1, description: 'Schema version of the payload' }),
    occurredAt: envelopeFields.occurredAt,
    producer: envelopeFields.producer,
    payload,
  });
}

/** The envelope of one topic: `type` and `version` are fixed to the topic's own. */
export function TopicEnvelope<const T extends string, const V extends number, P extends TSchema>(
  type: T,
  version: V,
  payload: P,
  options: { title?: string; description?: string } = {},
): TObject<{
  id: TString;
  type: TLiteral<T>;
  version: TLiteral<V>;
  occurredAt: TString;
  producer: TString;
  payload: P;
}> {
  return Type.Object(
    {
      id: envelopeFields.id,
      type: Type.Literal(type),
      version: Type.Literal(version),
      occurredAt: envelopeFields.occurredAt,
      producer: envelopeFields.producer,
      payload,
    },
    options,
  );
}
