import { describe, expect, it } from 'vitest';
import {
  byteaArray,
  nullableNumberArray,
  nullableTextArray,
  numberArray,
  textArray,
  uncachedTextArray,
} from './array-literals';

describe('array literals', () => {
  it('joins numbers as JavaScript prints them, integers and fractions alike', () => {
    expect(numberArray([{ v: 1_732_770_000_123 }, { v: 97_000.5 }, { v: -0.25 }], (r) => r.v)).toBe(
      '{1732770000123,97000.5,-0.25}',
    );
    expect(numberArray([], (r: number) => r)).toBe('{}');
  });

  it('quotes every text, escaping backslash and double quote, so none reads as NULL or splits', () => {
    expect(textArray(['BTC/USD', 'NULL', 'a,b', 'say "hi"', 'back\\slash', ''], (s) => s)).toBe(
      '{"BTC/USD","NULL","a,b","say \\"hi\\"","back\\\\slash",""}',
    );
    // The second call is answered from the cache and must be the same.
    expect(textArray(['say "hi"'], (s) => s)).toBe('{"say \\"hi\\""}');
  });

  it('writes buffers in bytea hex form with the backslash escaped for the array parser', () => {
    expect(byteaArray([Buffer.from([0, 255]), Buffer.alloc(0)], (b) => b)).toBe('{\\\\x00ff,\\\\x}');
  });

  it('writes a null as an unquoted NULL, and the text "NULL" quoted', () => {
    expect(nullableNumberArray([1, null, 2.5], (n) => n)).toBe('{1,NULL,2.5}');
    expect(nullableTextArray([null, 'NULL', 'timeout "x"'], (s) => s)).toBe(
      '{NULL,"NULL","timeout \\"x\\""}',
    );
  });

  it('quotes values seen once the same way, braces, commas, spaces and quotes included', () => {
    const texts = [
      '{a,b}',
      'x}',
      ' lead',
      'q"\\',
      '8f0c6a52-6c1e-4d6e-9a43-0b7a5c1f9e21',
      '2026-01-05T12:00:00.000Z',
    ];
    expect(uncachedTextArray(texts, (s) => s)).toBe(textArray(texts, (s) => s));
    expect(uncachedTextArray(texts, (s) => s)).toBe(
      '{"{a,b}","x}"," lead","q\\"\\\\","8f0c6a52-6c1e-4d6e-9a43-0b7a5c1f9e21","2026-01-05T12:00:00.000Z"}',
    );
    expect(uncachedTextArray([], (s: string) => s)).toBe('{}');
  });
});
