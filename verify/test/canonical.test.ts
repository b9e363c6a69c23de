import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical.js';

describe('canonicalJson', () => {
  it('sorts object members by UTF-16 code units at every depth, with no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
    // U+1F600 is the surrogate pair D83D DE00: by code units it sorts before U+FFFF, by code
    // points after it.
    expect(canonicalJson({ '\uffff': 1, '\u{1f600}': 2, é: 3, Z: 4, a: 5, '': 6 })).toBe(
      '{"":6,"Z":4,"a":5,"é":3,"😀":2,"\uffff":1}',
    );
  });

  it('escapes strings as JSON.stringify does: quote, backslash and control characters only', () => {
    expect(canonicalJson('a"b\\c/d\n\t\b\f\r\u0001\u001f\u007f é € 😀 \u2028')).toBe(
      '"a\\"b\\\\c/d\\n\\t\\b\\f\\r\\u0001\\u001f\u007f é € 😀 \u2028"',
    );
    expect(canonicalJson({ 'a"b': 'x' })).toBe('{"a\\"b":"x"}');
  });

  it('writes safe integers, booleans and null as JSON does, and -0 as 0', () => {
    expect(
      canonicalJson([0, -0, 1, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, true, false, null]),
    ).toBe('[0,0,1,-1,9007199254740991,-9007199254740991,true,false,null]');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson(Object.assign(Object.create(null) as object, { b: 2, a: 1 }))).toBe('{"a":1,"b":2}');
  });

  it('refuses fractions and unsafe integers, naming the path', () => {
    expect(() => canonicalJson({ receipt: { pnlCents: 7.5 } })).toThrow(
      new TypeError('value.receipt.pnlCents is not a safe integer'),
    );
    expect(() => canonicalJson({ pnlCents: 7.5 }, 'receipt')).toThrow(
      new TypeError('receipt.pnlCents is not a safe integer'),
    );
    expect(() => canonicalJson([1, 2 ** 53])).toThrow(new TypeError('value[1] is not a safe integer'));
    expect(() => canonicalJson({ a: [{ b: Number.NaN }] })).toThrow(
      new TypeError('value.a[0].b is not a safe integer'),
    );
    expect(() => canonicalJson(Infinity)).toThrow(TypeError);
    expect(() => canonicalJson({ 'odd key': 0.1 })).toThrow(
      new TypeError('value["odd key"] is not a safe integer'),
    );
  });

  it('refuses undefined, bigint, functions, symbols and holes', () => {
    expect(() => canonicalJson({ a: undefined })).toThrow(
      new TypeError('value.a is undefined, which has no canonical JSON form'),
    );
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(
      new TypeError('value.a is a bigint, which has no canonical JSON form'),
    );
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/value\.f is a function/);
    expect(() => canonicalJson([Symbol('s')])).toThrow(/value\[0\] is a symbol/);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => canonicalJson([1, , 3])).toThrow(
      new TypeError('value[1] is undefined, which has no canonical JSON form'),
    );
  });

  it('refuses objects that are not plain (a Date, a Map) and strings with a lone surrogate', () => {
    expect(() => canonicalJson({ at: new Date(0) })).toThrow(
      new TypeError('value.at is a Date, not a plain object'),
    );
    expect(() => canonicalJson(new Map())).toThrow(/is a Map, not a plain object/);
    expect(() => canonicalJson({ s: 'a\ud800b' })).toThrow(
      new TypeError('value.s contains a lone UTF-16 surrogate'),
    );
    expect(() => canonicalJson({ '\udc00': 1 })).toThrow(/contains a lone UTF-16 surrogate/);
  });

  it('is what JSON.stringify gives for sorted plain data', () => {
    const value = { z: [1, 'two', { y: false }], a: 'ä\u0000' };
    expect(canonicalJson(value)).toBe(JSON.stringify({ a: value.a, z: [1, 'two', { y: false }] }));
  });
});
