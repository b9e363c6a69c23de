import { Type } from '@sinclair/typebox';
import { RequestBody } from '@updown/schemas/api';
import { describe, expect, it } from 'vitest';
import { assertStrictBody, describeValidationError, looseObjects } from './validation';

const error = (
  keyword: string,
  instancePath: string,
  params: Record<string, unknown> = {},
  message?: string,
) => ({
  keyword,
  instancePath,
  schemaPath: '#',
  params,
  message,
});

describe('describeValidationError', () => {
  it('names nested fields and array items', () => {
    expect(describeValidationError([error('minimum', '/legs/0/amount', {}, 'must be >= 1')], 'body')).toBe(
      'legs[0].amount must be >= 1',
    );
    expect(describeValidationError([error('required', '/owner', { missingProperty: 'email' })], 'body')).toBe(
      'owner.email is required',
    );
  });

  it('says which part of the request was wrong outside the body', () => {
    expect(describeValidationError([error('type', '/limit', {}, 'must be integer')], 'querystring')).toBe(
      'query parameter limit must be integer',
    );
    expect(
      describeValidationError([error('required', '', { missingProperty: 'idempotency-key' })], 'headers'),
    ).toBe('header idempotency-key is required');
    expect(describeValidationError([error('format', '/id', {}, 'must match format "uuid"')], 'params')).toBe(
      'path parameter id must match format "uuid"',
    );
  });

  it('describes a whole-body problem', () => {
    expect(describeValidationError([error('type', '', {}, 'must be object')], 'body')).toBe(
      'body must be object',
    );
  });

  it('lists enum values', () => {
    expect(
      describeValidationError([error('enum', '/account_type', { allowedValues: ['real', 'demo'] })], 'body'),
    ).toBe('account_type must be one of: real, demo');
  });
});

describe('strict request bodies', () => {
  it('accepts RequestBody objects, nested ones included', () => {
    const body = RequestBody({
      amount: Type.Number(),
      meta: RequestBody({ note: Type.String() }),
      legs: Type.Array(RequestBody({ pair: Type.String() })),
      tags: Type.Record(Type.String(), Type.String()),
    });
    expect(looseObjects(body)).toEqual([]);
    expect(() => assertStrictBody('POST', '/x', body)).not.toThrow();
  });

  it('finds objects that leave extra properties unspecified', () => {
    const body = RequestBody({
      meta: Type.Object({ note: Type.String() }),
      legs: Type.Array(Type.Object({ pair: Type.String() })),
      either: Type.Union([Type.Object({ a: Type.String() }), RequestBody({ b: Type.String() })]),
    });
    expect(looseObjects(body)).toEqual(['body.meta', 'body.legs.items', 'body.either.anyOf[0]']);
    expect(looseObjects(Type.Object({ a: Type.String() }))).toEqual(['body']);
  });
});
