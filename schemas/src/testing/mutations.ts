import fc from 'fast-check';
import { HOSTILE_STRINGS, type JsonSchema } from './schema-arbitrary';

/**
 * A JSON token written as is, for what `JSON.stringify` cannot produce: `NaN`, `Infinity`, numbers
 * past a double's range (`1e400`) or precision (`9007199254740993`).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of `value`, with `RawJson` tokens spliced in (the result may be invalid JSON). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).map(([key, child]) => `${JSON.stringify(key)}:${toJsonText(child)}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Numbers that break naive money code: huge, negative, sub-cent, non-finite, imprecise. */
export const HOSTILE_NUMBERS: readonly unknown[] = [
  0,
  -0,
  -1,
  -0.01,
  0.001,
  0.005,
  1.005,
  10.005,
  1.999,
  99.999,
  1e-7,
  5e-324,
  1e21,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER / 100,
  new RawJson('92233720368547758.07'),
  new RawJson('9007199254740993'),
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('NaN'),
  new RawJson('Infinity'),
  new RawJson('-Infinity'),
  new RawJson('0x10'),
  new RawJson('1.'),
  new RawJson('01'),
];

/** Values of the wrong JSON type for most fields. */
export const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [1, 2],
  { $gt: '' },
  { amount: 1 },
  '100',
  '1e3',
  'NaN',
  '',
  '10.00',
];

const EXTRA_KEYS = [
  'extra',
  '__proto__',
  'constructor',
  'prototype',
  'role',
  'balance',
  'user_id',
  'is_admin',
];

/** A string just past a length limit, or far past it. */
function longString(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const limit = schema?.maxLength ?? 256;
  return fc.oneof(
    fc.constant('x'.repeat(limit + 1)),
    fc.constant('é'.repeat(limit + 1)),
    fc.constant('<script>'.repeat(Math.ceil((limit + 1) / 8))),
    fc.constant('9'.repeat(20_000)),
  );
}

/** Any value a hostile client might put where `schema` expects something else. */
export function hostileValue(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.constantFrom(...WRONG_TYPES),
    fc.constantFrom(...HOSTILE_STRINGS),
    longString(schema),
    fc.string({ maxLength: 40, unit: 'binary' }),
  );
}

/** Nesting deep enough to trip a recursive parser or validator. */
function deeplyNested(depth: number): RawJson {
  return new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);
}

/**
 * Mutations of a valid object (a body, a query, path parameters): one field replaced by a hostile
 * value, removed, or joined by an unknown one, or the whole value swapped for a non-object.
 */
export function mutateObject(
  generated: Readonly<Record<string, unknown>> | null,
  bodySchema: JsonSchema,
): fc.Arbitrary<unknown> {
  // A body that may also be left out (`anyOf [object, null]`) is mutated in its object form.
  const schema = bodySchema.anyOf?.find((branch) => branch.type === 'object') ?? bodySchema;
  const valid: Readonly<Record<string, unknown>> = generated ?? {};
  const keys = Object.keys(schema.properties ?? {});
  const replaceField =
    keys.length === 0
      ? undefined
      : fc
          .constantFrom(...keys)
          .chain((key) =>
            hostileValue(schema.properties?.[key]).map((value) =>
              Object.fromEntries([...Object.entries(valid), [key, value]]),
            ),
          );
  const dropField =
    keys.length === 0
      ? undefined
      : fc
          .constantFrom(...keys)
          .map((key) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key)));
  const addField = fc
    .tuple(fc.constantFrom(...EXTRA_KEYS), hostileValue(undefined))
    .map(([key, value]) => Object.fromEntries([...Object.entries(valid), [key, value]]));
  const wholeValue = fc.constantFrom<unknown>(
    null,
    [],
    'body',
    42,
    true,
    [valid],
    deeplyNested(5_000),
    new RawJson('{"a":'),
    new RawJson(`{${JSON.stringify('k')}:1,${JSON.stringify('k')}:2}`),
  );
  const choices: fc.Arbitrary<unknown>[] = [addField, wholeValue];
  if (replaceField) choices.push(replaceField, replaceField, replaceField);
  if (dropField) choices.push(dropField);
  return fc.oneof(...choices);
}
