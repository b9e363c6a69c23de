import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApiDocument, type ApiDocument } from './api-document';

/**
 * The OpenAPI document as a strict OpenAPI 3.0.3 reader takes it. In 3.0.3 `nullable: true` adds
 * null only to the `type` beside it, and a nullable `enum` admits null only when it lists it; a
 * `nullable` next to a `$ref`, `allOf` or `anyOf` alone admits nothing, and such a reader refuses
 * the nulls the server sends. Ajv applies those same rules (it refuses to compile `nullable`
 * without `type`), so it stands in for the reader here.
 */

type SchemaObject = Record<string, unknown>;
/** Keywords whose values are data, not schemas: a `nullable` key inside one is a value. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['example', 'examples', 'default', 'enum', 'const']);
const BASE_ID = 'openapi.json';

let doc: ApiDocument;
let ajv: Ajv;

beforeAll(async () => {
  doc = await buildApiDocument();
  ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // The components under one id, so a schema's `#/components/...` references resolve.
  ajv.addSchema({ $id: BASE_ID, components: doc.components });
});

/** Every object of the document with `key` among its own keys, by JSON pointer. */
function objectsWith(key: string): { at: string; schema: SchemaObject }[] {
  const found: { at: string; schema: SchemaObject }[] = [];
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${at}/${index}`));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    if (Object.hasOwn(value, key)) found.push({ at, schema: value as SchemaObject });
    for (const [name, child] of Object.entries(value)) {
      if (!DATA_KEYWORDS.has(name)) walk(child, `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(doc, '#');
  return found;
}

/** `schema` compiled with its `#/components/...` references pointing into the document. */
function compiled(schema: unknown) {
  const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${BASE_ID}#/`));
  return ajv.compile(rebased as object);
}

describe('the OpenAPI document, read strictly as OpenAPI 3.0.3', () => {
  it('is valid for an independent OpenAPI validator', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('marks nothing nullable without a type, and every nullable enum lists null', () => {
    const nullable = objectsWith('nullable');
    expect(nullable.length).toBeGreaterThan(10);
    for (const { at, schema } of nullable) {
      expect(schema, `${at}: nullable without a type`).toHaveProperty('type');
      if (schema.nullable === true && Array.isArray(schema.enum)) {
        expect(schema.enum, `${at}: a nullable enum without null`).toContain(null);
      }
    }
  });

  it('admits null wherever a schema offers a null branch, and the branch admits nothing else', () => {
    const unions = objectsWith('anyOf').filter(({ schema }) =>
      (schema.anyOf as SchemaObject[]).some((branch) => branch.nullable === true),
    );
    expect(unions.length).toBeGreaterThanOrEqual(11);
    for (const { at, schema } of unions) {
      const validate = compiled(schema);
      expect(validate(null), `${at}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      const nullBranch = (schema.anyOf as SchemaObject[]).find((branch) => branch.nullable === true)!;
      expect(compiled(nullBranch)({}), `${at}: the null branch takes an object`).toBe(false);
    }
  });

  it('takes the nulls the server sends in evidence, receipts and admin users', () => {
    for (const [name, field] of [
      ['TradeEvidence', 'reference_check'],
      ['TradeEvidence', 'entry_tick'],
      ['TradeEvidence', 'exit_tick'],
      ['Receipt', 'entryTick'],
      ['Receipt', 'exitTick'],
      ['Receipt', 'afterExpiryTick'],
      ['AdminUser', 'limits'],
      ['AdminUser', 'toxicity'],
      ['RiskTrader', 'limits'],
      ['AdminPairFeed', 'reference'],
      ['WalletCommandResponse', 'request'],
    ] as const) {
      const property = compiled({ $ref: `#/components/schemas/${name}/properties/${field}` });
      expect(property(null), `${name}.${field}`).toBe(true);
    }
  });
});
