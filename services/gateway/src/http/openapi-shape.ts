/**
 * The finishing pass over the OpenAPI document @fastify/swagger generates from the route schemas.
 * The route schemas stay exactly what Fastify validates with; this pass only changes how the
 * document presents them:
 *
 * - every schema with a `title` becomes a named component (`#/components/schemas/<title>`) and is
 *   referenced by `$ref`, so generated clients get named types instead of anonymous inline ones; a
 *   nullable use becomes `anyOf: [$ref, null]`, the one form a strict OpenAPI 3.0.3 reader takes;
 * - every response has a description saying when it is answered, instead of "Default Response";
 * - every error answer is `application/json`, whatever the operation's success answer is;
 * - every operation declares the refusals the server gives before its handler runs
 *   (`declareEdgeRefusals`): 400, 413 and 415 where a body is parsed, 400 where an input is
 *   validated, 414 (404 on a GET) where a path parameter can be too long;
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
/**
 * The methods whose body Fastify parses: POST, PUT and PATCH always, DELETE and OPTIONS whenever
 * the request says it has one (a Content-Type with a length or chunks). Any of them can be refused
 * as malformed (400), too large (413) or of a type no parser takes (415) before its handler runs,
 * whether or not the operation reads a body.
 */
const BODY_PARSED_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch', 'delete', 'options']);
/** Fastify's `maxParamLength`: a longer path parameter matches no route. */
const PATH_PARAMETER_LENGTH_MAX = 100;

/** When each refusal is answered; every one carries `{detail, code}`. */
export const STATUS_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '400': 'Refused: the request breaks a rule; `detail` says which, `code` is stable',
  '401': 'No valid credential: a missing, expired or wrong token',
  '402': 'The payment provider declined the payment',
  '403': 'Signed in, but this account may not do this',
  '404': 'Not found (or not yours)',
  '409': 'Conflicts with the current state; `detail` says how',
  '413': 'The body is larger than the server accepts (BODY_LIMIT_BYTES)',
  '414': `The URL is longer than the server accepts: a path parameter over ${PATH_PARAMETER_LENGTH_MAX} characters`,
  '429': 'Too many requests; `detail` says when to try again',
  '501': 'Not configured on this server',
  '503': 'Not ready, or a service behind the gateway is unavailable; safe to retry',
  '5XX': 'Server error; `detail` never shows internals',
};

const DEFAULT_DESCRIPTION = 'Default Response';

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * OpenAPI 3.0's way to say "null": `nullable` only takes effect beside a `type`, and `enum` then
 * narrows the type to null alone. A fresh object each time: the document is edited in place.
 */
function nullOnly(): JsonObject {
  return { type: 'object', nullable: true, enum: [null] };
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
    // OpenAPI 3.0 ignores siblings of `$ref`, and `nullable` beside `allOf` without a `type` does
    // not admit null to a strict reader: a nullable use is "the component, or null".
    return nullable === true ? { anyOf: [ref, nullOnly()] } : ref;
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
    response.description = statusDescription(operation, status) ?? summary;
  }
}

/** The `{detail, code}` answer of a refusal, shaped as the operation's other errors are. */
function errorAnswer(responses: JsonObject, description: string): JsonObject {
  const template = responses['5XX'];
  return isObject(template) ? { ...template, description } : { description };
}

/** When `status` is answered, in the words of this operation (a 415 names what it takes). */
function statusDescription(operation: JsonObject, status: string): string | undefined {
  if (status !== '415') return STATUS_DESCRIPTIONS[status];
  const body = operation.requestBody;
  const types = isObject(body) && isObject(body.content) ? Object.keys(body.content) : [];
  return `The body was sent with a content type the server does not read; send ${types.length > 0 ? types.join(' or ') : 'application/json'}`;
}

/**
 * The refusals the server gives before an operation's handler runs, whatever the route's own
 * `response` lists, so no route can forget them:
 * - the body parser's 400 (malformed), 413 (over BODY_LIMIT_BYTES) and 415 (a type without a
 *   parser) on every method whose body is parsed, whether or not the operation reads one;
 * - the schema stage's 400 on every operation with an input to validate;
 * - for a path parameter over `PATH_PARAMETER_LENGTH_MAX`, which no route matches: the router's
 *   414, or on a GET the 404 of an unknown path (the console's pages take every unmatched GET).
 * `api-document-refusals.test.ts` sends each of them to every route and checks the status.
 */
function declareEdgeRefusals(method: string, operation: JsonObject): void {
  const responses = operation.responses;
  if (!isObject(responses)) return;
  const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isObject) : [];
  const statuses: string[] = [];
  if (BODY_PARSED_METHODS.has(method)) statuses.push('400', '413', '415');
  // Cookies are documented but never validated (Fastify has no cookie schema).
  if (operation.requestBody !== undefined || parameters.some((p) => p.in !== 'cookie')) statuses.push('400');
  if (parameters.some((p) => p.in === 'path')) statuses.push(method === 'get' ? '404' : '414');
  for (const status of statuses) {
    if (responses[status] !== undefined) continue;
    responses[status] = errorAnswer(responses, statusDescription(operation, status)!);
  }
}

/**
 * Every refusal is `{detail, code}` in JSON (error-handler.ts), even where the success answer is
 * a file: an operation's `produces` lists the file's types for all its answers, which would
 * declare a 404 as image/pdf.
 */
function jsonErrorAnswers(operation: JsonObject): void {
  const responses = operation.responses;
  if (!isObject(responses)) return;
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[45]/.test(status) || !isObject(response) || !isObject(response.content)) continue;
    const media = Object.values(response.content).find(isObject);
    if (media === undefined) continue;
    response.content = { 'application/json': media };
  }
}

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
    media.schema = { anyOf: [schema, nullOnly()] };
    body.required = false;
  }
}

const UNSTORABLE_TEXT: JsonObject = { type: 'string', pattern: UNSTORABLE_TEXT_PATTERN };
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'] as const;

/** Adds the NUL rule to every free string inside a request schema, in place. */
function refuseUnstorableText(schema: Json | undefined, depth = 0): void {
  if (!isObject(schema) || depth > 32) return;
  // A string with fixed values (an enum member, a literal) cannot hold NUL anyway, and a file's
  // bytes (`format: binary`, a multipart part) are not text.
  const fixed = schema.enum !== undefined || schema.const !== undefined || schema.format === 'binary';
  if (schema.type === 'string' && !fixed) {
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
      // Cookies are read by handlers, not validated: the rule is not applied to them.
      if (isObject(parameter) && parameter.in !== 'cookie') refuseUnstorableText(parameter.schema);
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
      jsonErrorAnswers(operation);
      declareEdgeRefusals(method, operation);
      describeResponses(operation);
      item[method] = collector.hoist(operation);
    }
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return copy as T;
}
