import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { byteaArray, nullableNumberArray, nullableTextArray, numberArray, textArray } from './array-literals';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ max: 1 });
});
afterAll(async () => {
  await database?.drop();
});

describe('array literals read back by PostgreSQL', () => {
  it('gives back every text, number and buffer exactly as sent', async () => {
    const texts = ['BTC/USD', 'NULL', 'a,b', 'say "hi"', 'back\\slash', '{x}', ' padded ', ''];
    const numbers = [1_732_770_000_123, 97_000.123456789, -0.25, 0.1 + 0.2, 2 ** 53 - 1];
    const buffers = [Buffer.from('00ff10', 'hex'), Buffer.alloc(32, 7), Buffer.alloc(0)];
    const { rows } = await database.db.executeQuery<{ t: string[]; f: number[]; b: Buffer[] }>(
      CompiledQuery.raw('select $1::text[] as t, $2::float8[] as f, $3::bytea[] as b', [
        textArray(texts, (s) => s),
        numberArray(numbers, (n) => n),
        byteaArray(buffers, (b) => b),
      ]),
    );
    expect(rows[0]!.t).toEqual(texts);
    expect(rows[0]!.f.map(Number)).toEqual(numbers);
    expect(rows[0]!.b.map((b) => b.toString('hex'))).toEqual(buffers.map((b) => b.toString('hex')));
  });

  it('gives back nulls as nulls, beside a text that reads NULL', async () => {
    const texts = [null, 'NULL', 'connect ECONNREFUSED 127.0.0.1:1 "x"', null];
    const numbers = [null, 1.5, null, 7];
    const { rows } = await database.db.executeQuery<{ t: (string | null)[]; f: (number | null)[] }>(
      CompiledQuery.raw('select $1::text[] as t, $2::float8[] as f', [
        nullableTextArray(texts, (s) => s),
        nullableNumberArray(numbers, (n) => n),
      ]),
    );
    expect(rows[0]!.t).toEqual(texts);
    expect(rows[0]!.f.map((n) => (n === null ? null : Number(n)))).toEqual(numbers);
  });
});
