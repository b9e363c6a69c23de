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
  readonly query?: Readonly<Record<string, string>>;
  readonly params?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined when none is sent. */
  readonly body?: unknown;
}

export type DocumentVerdict = { readonly ok: true } | { readonly ok: false; readonly why: string };

type Json = Record<string, unknown>;

interface Operation {
  readonly parameters: readonly { name: string; in: string; required?: boolean; schema: Json }[];
  readonly body: { readonly required: boolean; readonly schema: Json } | undefined;
}

function newAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes, multipleOfPrecision: 6 });
  addFormats(ajv);
  return ajv;
}

export class DocumentRequests {
  private readonly bodyAjv = newAjv(false);
  private readonly textAjv = newAjv(true);
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

  /** Whether the document allows `request`; with the first reason when it does not. */
  judge(request: DocumentRequest): DocumentVerdict {
    const op = this.operation(request.method, request.url);
    if (!op) return { ok: false, why: `no ${request.method} ${request.url} in the document` };
    for (const part of ['query', 'path', 'header'] as const) {
      const values =
        (part === 'query' ? request.query : part === 'path' ? request.params : request.headers) ?? {};
      const declared = op.parameters.filter((p) => p.in === part);
      const schema: Json = {
        type: 'object',
        properties: Object.fromEntries(
          declared.map((p) => [part === 'header' ? p.name.toLowerCase() : p.name, p.schema]),
        ),
        required: declared
          .filter((p) => p.required)
          .map((p) => (part === 'header' ? p.name.toLowerCase() : p.name)),
      };
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
