import { Type, type ObjectOptions, type TObject, type TProperties } from '@sinclair/typebox';

/**
 * The object schema for a request body. Unknown fields are rejected (400) instead of being
 * silently dropped or stored, so a misspelt field name fails loudly at the edge. Use it for every
 * `body` and for every object nested inside one; the gateway refuses to start if a route's body
 * schema contains an object that does not say what to do with extra properties.
 */
export function RequestBody<T extends TProperties>(properties: T, options: ObjectOptions = {}): TObject<T> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}
