/**
 * The finishing pass over the OpenAPI document @fastify/swagger generates from the route schemas.
 * The route schemas stay exactly what Fastify validates with; this pass only changes how the
 * document presents them:
 *
 * - every schema with a `title` becomes a named component (`#/components/schemas/<title>`) and is
 *   referenced by `$ref`, so generated clients get named types instead of anonymous inline ones;
 * - every response has a description saying when it is answered, instead of "Default Response";
 * - every operation that takes a body declares the 413 (too large) and 415 (not JSON) it can get;
 * - a body schema that also allows `null` means "the body is optional" (Fastify validates a
 *   missing body as null), so the request body is marked not required, and `null` stays allowed;
 * - every string a request can carry states the rule the gateway applies after every schema: no
 *   NUL character (`unstorableValue` in validation.ts), as `not: {type: string, pattern}` so it
 *   stands beside the field's own `pattern`.
 */
import { UNSTORABLE_TEXT_PATTERN } from './validation';

type Json = null | boolean | number | string | Json[] | JsonObject;
interface JsonObject {
  [key: string]: Json;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const BODY_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch']);

/** When each refusal is answered; every one carries `{detail, code}`. */
export const STATUS_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '400': 'Refused: the request breaks a rule; `detail` says which, `code` is stable',
  '401': 'No valid credential: a missing, expired or wrong token',
  '402': 'The payment provider declined the payment',
  '403': 'Signed in, but this account may not do this',
  '404': 'Not found (or not yours)',
  '409': 'Conflicts with the current state; `detail` says how',
  '413': 'The body is larger than the server accepts (BODY_LIMIT_BYTES)',
  '415': 'The body was sent with a content type other than application/json',
  '429': 'Too many requests; `detail` says when to try again',
  '501': 'Not configured on this server',
  '503': 'Not ready, or a service behind the gateway is unavailable; safe to retry',
  '5XX': 'Server error; `detail` never shows internals',
};

const DEFAULT_DESCRIPTION = 'Default Response';

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Moves titled schemas into `components`, depth first, and returns the rewritten schema. */
class ComponentCollector {
  constructor(private readonly components: JsonObject) {}

  hoist(schema: Json): Json {
    if (Array.isArray(schema)) return schema.map((item) => this.hoist(item));
    if (!isObject(schema)) return schema;
    const rewritten: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      // Examples and defaults are data, not schemas; a `title` inside one is a value.
      rewritten[key] =
        key === 'examples' || key === 'default' || key === 'example' ? value : this.hoist(value);
    }
    const title = rewritten.title;
    if (typeof title !== 'string' || !/^[A-Za-z0-9._-]+$/.test(title)) return rewritten;
    const { nullable, ...named } = rewritten;
    this.register(title, named);
    const ref: JsonObject = { $ref: `#/components/schemas/${title}` };
    // OpenAPI 3.0 ignores siblings of `$ref`, so a nullable use wraps the reference.
    return nullable === true ? { allOf: [ref], nullable: true } : ref;
  }

  private register(title: string, schema: JsonObject): void {
    const existing = this.components[title];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI: two different schemas are titled ${title}; give one another title`);
    }
    this.components[title] = schema;
  }
}

function describeResponses(operation: JsonObject): void {
  const responses = operation.responses;
  if (!isObject(responses)) return;
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response) || response.description !== DEFAULT_DESCRIPTION) continue;
    const summary = typeof operation.summary === 'string' ? operation.summary : 'Success';
    response.description = STATUS_DESCRIPTIONS[status] ?? summary;
  }
}

/** The 413 and 415 every body-taking operation can get, with the error body of its other refusals. */
function declareBodyRefusals(method: string, operation: JsonObject): void {
  const responses = operation.responses;
  if (!BODY_METHODS.has(method) || !isObject(responses)) return;
  const errorBody = responses['5XX'];
  for (const status of ['413', '415']) {
    if (responses[status] !== undefined) continue;
    responses[status] = isObject(errorBody)
      ? { ...errorBody, description: STATUS_DESCRIPTIONS[status]! }
      : { description: STATUS_DESCRIPTIONS[status]! };
  }
}

/**
 * OpenAPI 3.0's way to say "null": `nullable` only takes effect beside a `type`, and `enum` then
 * narrows the type to null alone.
 */
const NULL_ONLY: JsonObject = { type: 'object', nullable: true, enum: [null] };

/**
 * Fastify validates a missing body as null, so a JSON `null` body is taken as no body too; the
 * document says so with a `null` branch, or it would refuse what the server accepts.
 */
function optionalBody(operation: JsonObject): void {
  const body = operation.requestBody;
  if (!isObject(body) || !isObject(body.content)) return;
  for (const media of Object.values(body.content)) {
    if (!isObject(media) || !isObject(media.schema) || media.schema.nullable !== true) continue;
    const { nullable: _nullable, ...schema } = media.schema;
    media.schema = { anyOf: [schema, NULL_ONLY] };
    body.required = false;
  }
}

const UNSTORABLE_TEXT: JsonObject = { type: 'string', pattern: UNSTORABLE_TEXT_PATTERN };
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'] as const;

/** Adds the NUL rule to every free string inside a request schema, in place. */
function refuseUnstorableText(schema: Json | undefined, depth = 0): void {
  if (!isObject(schema) || depth > 32) return;
  // A string with fixed values (an enum member, a literal) cannot hold NUL anyway.
  if (schema.type === 'string' && schema.enum === undefined && schema.const === undefined) {
    schema.not = UNSTORABLE_TEXT;
  }
  if (isObject(schema.properties)) {
    for (const child of Object.values(schema.properties)) refuseUnstorableText(child, depth + 1);
  }
  refuseUnstorableText(schema.items, depth + 1);
  refuseUnstorableText(schema.additionalProperties, depth + 1);
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) for (const child of list) refuseUnstorableText(child, depth + 1);
  }
}

function refuseUnstorableInputs(operation: JsonObject): void {
  if (Array.isArray(operation.parameters)) {
    for (const parameter of operation.parameters) {
      if (isObject(parameter)) refuseUnstorableText(parameter.schema);
    }
  }
  const body = operation.requestBody;
  if (isObject(body) && isObject(body.content)) {
    for (const media of Object.values(body.content)) {
      if (isObject(media)) refuseUnstorableText(media.schema);
    }
  }
}

/** The finished document; `doc` is not changed. */
export function shapeOpenApiDocument<T extends object>(doc: T): T {
  const copy = JSON.parse(JSON.stringify(doc)) as JsonObject;
  const components = isObject(copy.components) ? copy.components : (copy.components = {});
  const schemas = isObject(components.schemas) ? components.schemas : (components.schemas = {});
  const collector = new ComponentCollector(schemas);
  const paths = isObject(copy.paths) ? copy.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      optionalBody(operation);
      refuseUnstorableInputs(operation);
      declareBodyRefusals(method, operation);
      describeResponses(operation);
      item[method] = collector.hoist(operation);
    }
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return copy as T;
}
