import fc from 'fast-check';

/**
 * The subset of JSON Schema the API's TypeBox schemas use: objects, strings (lengths, `uuid`,
 * `pattern`), numbers and integers with bounds and `multipleOf`, booleans, null, `const`, `enum`
 * and `anyOf`.
 */
export interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly pattern?: string;
  readonly items?: JsonSchema;
}

/**
 * Values a field of this name should sometimes take, so that generated requests get past "unknown
 * pair" and reach the handlers (and move money) instead of only ever failing validation.
 */
export type FieldHints = Readonly<Record<string, readonly unknown[]>>;

/** Strings no schema limit rejects on its own: the handler has to cope with them. */
export const HOSTILE_STRINGS: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE ledger_entries; --",
  '1; SELECT pg_sleep(5)',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  'nul\u0000inside',
  '\u202Eevil',
  '\u200B',
  '😀👍🏽🇫🇷',
  'Ω≈ç√∫',
  '\uD800',
  'a\r\nX-Injected: 1',
  '__proto__',
  'constructor',
  ' ',
];

/** An integer range as fast-check wants it: inside the safe integers. */
function intRange(schema: JsonSchema): { min: number; max: number } {
  const low =
    schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : schema.minimum;
  const high =
    schema.exclusiveMaximum !== undefined ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.maximum;
  return {
    min: Math.max(Math.ceil(low ?? -1_000_000_000), Number.MIN_SAFE_INTEGER),
    max: Math.min(Math.floor(high ?? 1_000_000_000), Number.MAX_SAFE_INTEGER),
  };
}

/** Multiples of `step` inside the bounds, written with no more decimals than `step` has (0.01 → cents). */
function multiplesArbitrary(schema: JsonSchema, step: number): fc.Arbitrary<number> {
  const decimals = (String(step).split('.')[1] ?? '').length;
  const scale = 10 ** decimals;
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e9;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e9;
  const stepUnits = Math.round(step * scale);
  return fc
    .integer({ min: Math.ceil((min * scale) / stepUnits), max: Math.floor((max * scale) / stepUnits) })
    .map((k) => (k * stepUnits) / scale)
    .filter(
      (n) =>
        (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
        (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum),
    );
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  if (schema.multipleOf !== undefined) return multiplesArbitrary(schema, schema.multipleOf);
  if (schema.type === 'integer') return fc.integer(intRange(schema));
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e9;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e9;
  const inside = (n: number) =>
    (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
    (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum);
  return fc
    .oneof(
      // Money-shaped: whole cents, which is what most numeric fields carry.
      fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((cents) => cents / 100),
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
    )
    .filter(inside);
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date') {
    return fc
      .date({
        min: new Date('1900-01-01T00:00:00Z'),
        max: new Date('2099-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
  }
  const minLength = schema.minLength ?? 0;
  // Long strings are generated separately (mutations); valid ones stay short so runs are quick.
  const maxLength = Math.min(schema.maxLength ?? 64, 64);
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  const fits = (s: string) =>
    [...s].length >= minLength &&
    [...s].length <= (schema.maxLength ?? Number.POSITIVE_INFINITY) &&
    (pattern === undefined || pattern.test(s));
  if (pattern) {
    // Strings the pattern allows, at the allowed lengths (hostile ones come from the mutations).
    return fc.stringMatching(pattern).filter(fits);
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme-ascii' }) },
    { weight: 2, arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).filter(fits) },
  );
}

/**
 * Values that satisfy `schema`, with `hints` mixed in for the properties they name. Schemas with
 * no type (a bare `{}`) get JSON-ish anything.
 */
export function arbitraryFromSchema(schema: JsonSchema, hints: FieldHints = {}): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((s) => arbitraryFromSchema(s, hints)));
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(properties)) {
        const own = arbitraryFromSchema(child, hints);
        const hinted = hints[key];
        model[key] =
          hinted && hinted.length > 0
            ? fc.oneof({ weight: 1, arbitrary: own }, { weight: 2, arbitrary: fc.constantFrom(...hinted) })
            : own;
      }
      return fc.record(model, { requiredKeys: [...(schema.required ?? [])] });
    }
    case 'string':
      return stringArbitrary(schema);
    case 'number':
    case 'integer':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFromSchema(schema.items ?? {}, hints), { maxLength: 5 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
