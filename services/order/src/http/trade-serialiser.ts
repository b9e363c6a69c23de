import fastJson from 'fast-json-stringify';
import { Trade } from '@updown/schemas/api';

type Schema = Readonly<Record<string, unknown>>;

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
/** Keywords that change nothing about how a primitive value is written as JSON. */
const WRITE_NEUTRAL_KEYS = new Set(['type', 'const', 'format', 'title', 'description', 'minimum', 'maximum']);

function primitiveBranch(branch: Schema): string | undefined {
  const type = branch.type;
  if (typeof type !== 'string' || !PRIMITIVE_TYPES.has(type)) return undefined;
  return Object.keys(branch).every((key) => WRITE_NEUTRAL_KEYS.has(key)) ? type : undefined;
}

/**
 * A schema as a serialiser needs it: every union whose branches are all primitives (`number or
 * null`, a union of string literals) becomes a list of types. fast-json-stringify writes a union
 * by validating the value against each branch in turn with ajv, and each branch that fails
 * allocates its errors: five nullable fields of a pending trade, and the literal unions for a DOWN
 * or real one. A list of types it writes by `typeof`, to the same text. Only for writing: the API
 * document and validation keep the schema as it is.
 */
export function writingSchema(schema: Schema): Schema {
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as Schema[]).map(writingSchema);
    const types = branches.map(primitiveBranch);
    if (types.every((type) => type !== undefined)) {
      const { anyOf: _anyOf, ...rest } = schema;
      const distinct = [...new Set(types)];
      return { ...rest, type: distinct.length === 1 ? distinct[0] : distinct };
    }
    return { ...schema, anyOf: branches };
  }
  if (schema.type === 'object' && typeof schema.properties === 'object' && schema.properties !== null) {
    const properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Schema>).map(([name, property]) => [
        name,
        writingSchema(property),
      ]),
    );
    return { ...schema, properties };
  }
  if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null) {
    return { ...schema, items: writingSchema(schema.items as Schema) };
  }
  return schema;
}

/**
 * The public `Trade` as JSON text: what `POST /api/trades/place` answers in one process (the
 * gateway) and across processes (the order service, whose text the gateway sends on).
 */
export const serialiseTrade: (trade: Trade) => string = fastJson(writingSchema(Trade));
