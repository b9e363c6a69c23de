import { AjvCompiler } from '@fastify/ajv-compiler';
import type { Ajv } from 'ajv';
import type { FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import { ERROR_CODE_KEYWORD, ERROR_MESSAGES_KEYWORD } from '@updown/schemas/api';

type SchemaErrorDataVar = 'body' | 'headers' | 'params' | 'querystring';

/**
 * Request validation rules, in one place:
 *
 * - JSON bodies are validated as sent: no type coercion (`"5"` is not a number) and no silent
 *   removal of unknown fields. Body schemas say `additionalProperties: false` (build them with
 *   `RequestBody` from `@updown/schemas/api`), so an unknown field is a 400 naming it; routes whose
 *   body schema leaves that open are refused when they are registered (see `assertStrictBody`).
 * - Query strings, path parameters and headers arrive as text, so they are coerced
 *   (`?limit=20` becomes the number 20, a repeated key an array).
 * - After the schema, every part is refused if a field it declares holds what nothing behind the
 *   gateway can take: a non-finite number or a NUL character (see `unstorableValue`).
 * - A schema may name the `detail` (and `code`) of its own refusals (`refusal()` from
 *   `@updown/schemas/api`); `verbose` puts the failing schema on each error so the formatter can
 *   read them.
 * - `multipleOf: 0.01` (two decimals of money) is compared within 1e-6 of a whole number of cents:
 *   binary floating point cannot hold 10.29 exactly, and 10.29 / 0.01 is 1028.9999999999998.
 */
export const ajvOptions = {
  customOptions: {
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    verbose: true,
    multipleOfPrecision: 6,
  },
  plugins: [refusalKeywords],
} satisfies FastifyServerOptions['ajv'];

/** Teaches Ajv the two refusal annotations, so its strict mode takes them as known keywords. */
function refusalKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: ERROR_MESSAGES_KEYWORD, schemaType: 'object' });
  ajv.addKeyword({ keyword: ERROR_CODE_KEYWORD, schemaType: 'string' });
  return ajv;
}

type BuildValidator = ReturnType<typeof AjvCompiler>;

/** Fastify's own Ajv compiler, twice: strict for bodies, coercing for the parts that are text. */
export function buildValidatorFactory(): BuildValidator {
  const pool = AjvCompiler();
  const factory: BuildValidator = (externalSchemas, options) => {
    const custom = options?.mode === 'JTD' ? {} : (options?.customOptions ?? {});
    const shared = { plugins: options?.plugins ?? [] };
    const body = pool(externalSchemas, { ...shared, customOptions: { ...custom, coerceTypes: false } });
    const text = pool(externalSchemas, { ...shared, customOptions: { ...custom, coerceTypes: 'array' } });
    return ((route: { httpPart?: string; schema?: unknown }) =>
      route.httpPart === 'body'
        ? refuseUnstorable(body(route as never) as unknown as CompiledValidator, undefined)
        : refuseUnstorable(text(route as never) as unknown as CompiledValidator, route.schema)) as never;
  };
  return factory;
}

/**
 * A string holding this is refused in every request part, as a JSON Schema `pattern` (ECMA-262):
 * the OpenAPI document states the rule on every request string from the same text (see
 * `openapi-shape.ts`), so the two cannot drift.
 */
export const UNSTORABLE_TEXT_PATTERN = '\\u0000';
const UNSTORABLE_TEXT = new RegExp(UNSTORABLE_TEXT_PATTERN, 'u');

/**
 * The first value in `value` that its schema allows but nothing behind it can take, as a JSON
 * pointer and the complaint:
 * - a non-finite number: Ajv's coercion turns `"1e400"`, `"Infinity"` or a long run of nines in a
 *   query string into `Infinity`, and its `minimum`/`maximum` only test finite numbers, so
 *   `?limit=1e400` passed `maximum: 1000` and reached SQL as `Infinity` (a 500);
 * - a string holding U+0000, which PostgreSQL text cannot store (`"email": "\u0000"` at sign-in
 *   was a 500).
 */
export function unstorableValue(
  value: unknown,
  at = '',
  depth = 0,
): { at: string; message: string } | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { at, message: 'must be a finite number' };
  }
  if (typeof value === 'string') {
    return UNSTORABLE_TEXT.test(value) ? { at, message: 'must not contain NUL characters' } : undefined;
  }
  if (depth > 32 || typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = unstorableValue(child, `${at}/${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

interface CompiledValidator {
  (data: unknown, context?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/**
 * The keys of a text part (query string, path, headers) that its schema declares. Those parts are
 * open objects (a client may add `?_=cache-buster`) and the server reads only what it declares, so
 * that is all the unstorable rule judges: what the OpenAPI document lists, and nothing it cannot.
 * Body schemas are closed (`additionalProperties: false`), so every key of a body is judged.
 */
function declaredPart(data: unknown, textSchema: unknown): unknown {
  const properties = (textSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (properties === undefined || typeof data !== 'object' || data === null) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => Object.hasOwn(properties, key)));
}

/**
 * Runs Ajv's validator, then refuses what `unstorableValue` finds, as a 400 naming the field;
 * `textSchema` is the schema of a text part, undefined for a body.
 */
function refuseUnstorable(validate: CompiledValidator, textSchema: unknown): CompiledValidator {
  const checked: CompiledValidator = (data, context) => {
    const result = validate(data, context);
    checked.errors = validate.errors;
    if (result !== true) return result;
    const found = unstorableValue(declaredPart(data, textSchema));
    if (!found) return true;
    checked.errors = [
      { keyword: 'type', instancePath: found.at, schemaPath: '#', params: {}, message: found.message },
    ];
    return false;
  };
  // Fastify passes the parent object only to Ajv functions (marked by `schemaEnv`), which lets
  // coercion replace a whole part; keep the mark so that still happens.
  checked.schemaEnv = validate.schemaEnv;
  return checked;
}

const PART_NOUN: Record<SchemaErrorDataVar, string> = {
  body: 'body',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/** `/items/0/name` → `items[0].name`. */
function fieldName(pointer: string, child?: unknown): string {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof child === 'string') segments.push(child);
  return segments.reduce((name, segment) => {
    if (/^\d+$/.test(segment)) return `${name}[${segment}]`;
    return name === '' ? segment : `${name}.${segment}`;
  }, '');
}

/** The `detail` and `code` of a schema refusal: the schema's own words when it has them. */
export interface ValidationRefusal {
  readonly detail: string;
  readonly code: string;
}

type VerboseError = FastifySchemaValidationError & { parentSchema?: Record<string, unknown> };

/**
 * The refusal words the failing schema names for the failed keyword, looking from the innermost
 * schema at the field outwards (a union's branches fail before the union itself).
 */
function annotatedRefusal(errors: readonly FastifySchemaValidationError[]): ValidationRefusal | undefined {
  const first = errors[0];
  if (!first) return undefined;
  for (const error of errors as readonly VerboseError[]) {
    if (error.instancePath !== first.instancePath) continue;
    const schema = error.parentSchema;
    const messages = schema?.[ERROR_MESSAGES_KEYWORD] as Record<string, string> | undefined;
    const detail = messages?.[error.keyword] ?? messages?.['*'];
    if (detail === undefined) continue;
    const code = schema?.[ERROR_CODE_KEYWORD];
    return { detail, code: typeof code === 'string' ? code : 'VALIDATION' };
  }
  return undefined;
}

/**
 * The answer to a schema refusal: the words the schema gives for it, or else one readable
 * sentence naming the field (`describeValidationError`), with code `VALIDATION`.
 */
export function validationRefusal(
  errors: readonly FastifySchemaValidationError[],
  part: SchemaErrorDataVar | undefined,
): ValidationRefusal {
  return annotatedRefusal(errors) ?? { detail: describeValidationError(errors, part), code: 'VALIDATION' };
}

/**
 * One readable sentence for the first validation problem, naming the field:
 * `amount must be >= 1`, `direction must be one of: UP, DOWN`, `foo is not allowed`,
 * `query parameter limit must be integer`.
 */
export function describeValidationError(
  errors: readonly FastifySchemaValidationError[],
  part: SchemaErrorDataVar | undefined,
): string {
  const first = errors[0];
  if (!first) return 'Invalid request';
  const noun = PART_NOUN[part ?? 'body'];
  const name = fieldName(first.instancePath, first.params.missingProperty ?? first.params.additionalProperty);
  const subject = name === '' ? noun : part === 'body' || part === undefined ? name : `${noun} ${name}`;

  switch (first.keyword) {
    case 'required':
      return `${subject} is required`;
    case 'additionalProperties':
      return `${subject} is not allowed`;
    case 'enum':
      return `${subject} must be one of: ${(first.params.allowedValues as unknown[]).join(', ')}`;
  }
  // A union of literals (TypeBox `Union([Literal('UP'), Literal('DOWN')])`) fails as one `const`
  // error per branch followed by `anyOf`; list the allowed values instead of the first branch.
  const atField = errors.filter((e) => e.instancePath === first.instancePath);
  const allowed = atField.filter((e) => e.keyword === 'const').map((e) => e.params.allowedValue);
  if (allowed.length > 0 && atField.some((e) => e.keyword === 'anyOf')) {
    return `${subject} must be one of: ${allowed.join(', ')}`;
  }
  return `${subject} ${first.message ?? 'is invalid'}`;
}

/** Object schemas inside `schema` that leave `additionalProperties` unspecified, as paths. */
export function looseObjects(schema: unknown, at = 'body', depth = 0): string[] {
  if (depth > 32 || typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  const isObject = node.type === 'object' || (node.type === undefined && typeof node.properties === 'object');
  // `patternProperties` (TypeBox `Record`) states which keys are allowed, so it counts as explicit.
  if (isObject && node.additionalProperties === undefined && node.patternProperties === undefined)
    found.push(at);
  for (const [key, child] of Object.entries((node.properties as Record<string, unknown> | undefined) ?? {})) {
    found.push(...looseObjects(child, `${at}.${key}`, depth + 1));
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    found.push(...looseObjects(node[key], `${at}.${key}`, depth + 1));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const list = node[key];
    if (Array.isArray(list))
      list.forEach((child, i) => found.push(...looseObjects(child, `${at}.${key}[${i}]`, depth + 1)));
  }
  for (const child of Object.values((node.patternProperties as Record<string, unknown> | undefined) ?? {})) {
    found.push(...looseObjects(child, `${at}.patternProperties`, depth + 1));
  }
  return found;
}

/** Registration-time check of the body convention; a violation is a programming error. */
export function assertStrictBody(method: string | string[], url: string, body: unknown): void {
  const loose = looseObjects(body);
  if (loose.length > 0) {
    throw new Error(
      `${String(method)} ${url}: request body objects must set additionalProperties (use RequestBody from @updown/schemas/api); open at ${loose.join(', ')}`,
    );
  }
}
