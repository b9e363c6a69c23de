import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * What a client generated from the OpenAPI document would send: this judges a request by the
 * document alone, with an Ajv of its own (not the gateway's compiler, hooks or refusal words), so a
 * test can compare the document's verdict with the server's. `multipleOfPrecision` is the float
 * tolerance any client needs for `multipleOf: 0.01` (10.29 / 0.01 is not an integer in binary).
 */

export interface DocumentRequest {
  readonly method: string;
  /** Fastify's form (`/api/trades/:id`) or the document's (`/api/trades/{id}`). */
  readonly url: string;
  /** As parsed from the URL: a repeated key is an array. */
  readonly query?: Readonly<Record<string, unknown>>;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, unknown>>;
  /** The parsed JSON body; undefined when none is sent. */
  readonly body?: unknown;
}

export type DocumentVerdict = { readonly ok: true } | { readonly ok: false; readonly why: string };

type Json = Record<string, unknown>;

/** Where an operation takes input, by OpenAPI's names. */
type ParameterPart = 'query' | 'path' | 'header';
const PARAMETER_PARTS: readonly ParameterPart[] = ['query', 'path', 'header'];
const HTTP_METHODS: ReadonlySet<string> = new Set([
  'get',
  'put',
  'post',
  'delete',
  'patch',
  'options',
  'head',
]);

interface Operation {
  readonly parameters: readonly { name: string; in: string; required?: boolean; schema: Json }[];
  readonly body: { readonly required: boolean; readonly schema: Json } | undefined;
}

/** An operation's inputs as JSON Schemas, `$ref`s resolved: each parameter part as one object. */
export interface DocumentedInputs {
  readonly method: string;
  /** The document's form: `/api/trades/{id}`. */
  readonly path: string;
  readonly body: { readonly required: boolean; readonly schema: Json } | undefined;
  readonly query: Json | undefined;
  readonly pathParams: Json | undefined;
  readonly headers: Json | undefined;
}

/**
 * The parameters of one part as the object a server validates: header names lower-cased, as
 * Node.js hands them over. Undefined when the operation declares none in that part.
 */
function partSchema(op: Operation, part: ParameterPart): Json | undefined {
  const declared = op.parameters.filter((p) => p.in === part);
  if (declared.length === 0) return undefined;
  const key = (name: string) => (part === 'header' ? name.toLowerCase() : name);
  return {
    type: 'object',
    properties: Object.fromEntries(declared.map((p) => [key(p.name), p.schema])),
    required: declared.filter((p) => p.required).map((p) => key(p.name)),
  };
}

/**
 * Text parts (query, path, headers) are read the way OpenAPI's default `form` style and the
 * gateway read them: `"20"` is the number 20 where a number is declared, a repeated key is an
 * array, and a single value where an array is declared is an array of one (`coerceTypes: 'array'`).
 */
function newAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes, multipleOfPrecision: 6 });
  addFormats(ajv);
  return ajv;
}

export class DocumentRequests {
  private readonly bodyAjv = newAjv(false);
  private readonly textAjv = newAjv('array');
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor(private readonly paths: Json) {}

  /** Validates `doc` as OpenAPI first; an invalid document is an error, not a verdict. */
  static async of(doc: object): Promise<DocumentRequests> {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(`not a valid OpenAPI document: ${JSON.stringify(result.errors)}`);
    const resolved = validator.resolveRefs() as { paths: Json };
    return new DocumentRequests(resolved.paths);
  }

  private operation(method: string, url: string): Operation | undefined {
    const path = url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const item = this.paths[path] as Json | undefined;
    const op = item?.[method.toLowerCase()] as Json | undefined;
    if (!op) return undefined;
    const requestBody = op.requestBody as
      { required?: boolean; content: Record<string, { schema: Json }> } | undefined;
    const json = requestBody?.content['application/json'];
    return {
      parameters: (op.parameters as Operation['parameters'] | undefined) ?? [],
      body: json ? { required: requestBody?.required === true, schema: json.schema } : undefined,
    };
  }

  private validator(ajv: Ajv, key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Every operation of the document with its inputs, in document order. */
  operations(): DocumentedInputs[] {
    const found: DocumentedInputs[] = [];
    for (const [path, item] of Object.entries(this.paths)) {
      for (const method of Object.keys(item as Json).filter((key) => HTTP_METHODS.has(key))) {
        const op = this.operation(method, path);
        if (!op) continue;
        found.push({
          method: method.toUpperCase(),
          path,
          body: op.body,
          query: partSchema(op, 'query'),
          pathParams: partSchema(op, 'path'),
          headers: partSchema(op, 'header'),
        });
      }
    }
    return found;
  }

  /** Whether the document allows `request`; with the first reason when it does not. */
  judge(request: DocumentRequest): DocumentVerdict {
    const op = this.operation(request.method, request.url);
    if (!op) return { ok: false, why: `no ${request.method} ${request.url} in the document` };
    for (const part of PARAMETER_PARTS) {
      const values =
        (part === 'query' ? request.query : part === 'path' ? request.params : request.headers) ?? {};
      const schema = partSchema(op, part);
      if (!schema) continue;
      const validate = this.validator(this.textAjv, `${request.method} ${request.url} ${part}`, schema);
      // Coercion writes into the object it checks: give it a copy.
      if (!validate({ ...values }))
        return { ok: false, why: `${part}: ${this.textAjv.errorsText(validate.errors)}` };
    }
    if (request.body === undefined) {
      return op.body?.required ? { ok: false, why: 'body is required' } : { ok: true };
    }
    if (!op.body) return { ok: true };
    const validate = this.validator(this.bodyAjv, `${request.method} ${request.url} body`, op.body.schema);
    return validate(request.body)
      ? { ok: true }
      : { ok: false, why: `body: ${this.bodyAjv.errorsText(validate.errors)}` };
  }
}
