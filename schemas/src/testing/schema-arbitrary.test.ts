import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  AdminUsersQuery,
  CandlesQuery,
  GoogleLoginRequest,
  PlaceTradeBody,
  RegisterRequest,
  DepositBody,
} from '../api';
import { mutateObject, RawJson, toJsonText } from './mutations';
import { arbitraryFromSchema, type JsonSchema } from './schema-arbitrary';

/**
 * Judged as the gateway judges: Ajv, with the float tolerance money's `multipleOf: 0.01` needs
 * (TypeBox's own checker takes `0.29 % 0.01` literally and refuses cents).
 */
const ajv = new Ajv({ strict: false, multipleOfPrecision: 6 });
addFormats(ajv);
const firstError = (schema: TSchema, value: unknown): string | undefined => {
  const validate = ajv.compile(schema);
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
};

const SCHEMAS: Record<string, TSchema> = {
  PlaceTradeBody,
  DepositBody,
  RegisterRequest,
  GoogleLoginRequest,
  CandlesQuery,
  AdminUsersQuery,
};

describe('arbitraryFromSchema', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`generates only values ${name} accepts`, () => {
      fc.assert(
        fc.property(arbitraryFromSchema(schema as JsonSchema), (value) => {
          expect(firstError(schema, value), JSON.stringify(value)).toBeUndefined();
        }),
        { numRuns: 300 },
      );
    });
  }

  it('makes mutations that the schema refuses, or JSON that is not JSON at all, most of the time', () => {
    const schema = PlaceTradeBody as JsonSchema;
    let refused = 0;
    const runs = 300;
    fc.assert(
      fc.property(
        arbitraryFromSchema(schema).chain((valid) => mutateObject(valid as Record<string, unknown>, schema)),
        (mutant) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(toJsonText(mutant));
          } catch {
            refused++;
            return;
          }
          if (firstError(PlaceTradeBody, parsed) !== undefined) refused++;
        },
      ),
      { numRuns: runs },
    );
    expect(refused).toBeGreaterThan(runs * 0.8);
  });
});

describe('toJsonText', () => {
  it('writes raw tokens as they are, for values JSON.stringify cannot produce', () => {
    expect(toJsonText({ amount: new RawJson('NaN'), list: [new RawJson('1e400'), 'x'] })).toBe(
      '{"amount":NaN,"list":[1e400,"x"]}',
    );
    expect(toJsonText(Object.fromEntries([['__proto__', 1]]))).toBe('{"__proto__":1}');
  });
});
