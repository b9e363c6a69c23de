import fc from 'fast-check';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  AdminUsersQuery,
  CandlesQuery,
  GoogleLoginRequest,
  PlaceTradeBody,
  RegisterRequest,
  DepositBody,
} from '@updown/schemas/api';
import { mutateObject, RawJson, toJsonText } from './mutations';
import { arbitraryFromSchema, type JsonSchema } from './schema-arbitrary';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));

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
          expect(Value.Errors(schema, value).First()?.message, JSON.stringify(value)).toBeUndefined();
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
          if (!Value.Check(PlaceTradeBody, parsed)) refused++;
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
