import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import {
  byteaArray,
  nullableNumberArray,
  nullableTextArray,
  numberArray,
  textArray,
  uncachedTextArray,
} from './array-literals';

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

  it('reads back uuids, timestamps, bigints and numerics cast from their literals, as the placement sends them', async () => {
    const ids = ['8f0c6a52-6c1e-4d6e-9a43-0b7a5c1f9e21', '00000000-0000-0000-0000-000000000000'];
    const times = ['2026-01-05T12:00:00.000Z', '1999-12-31T23:59:59.999Z'];
    const cents = [2 ** 53 - 1, -1, 0];
    const pcts = [87.5, 80, 0.01];
    const keys = ['k,1', null, '{"json": [1, 2]}', 'tab\there', 'NULL'];
    const { rows } = await database.db.executeQuery<{
      u: string[];
      ts: Date[];
      b: number[];
      n: number[];
      k: (string | null)[];
    }>(
      CompiledQuery.raw(
        'select $1::uuid[] as u, $2::timestamptz[] as ts, $3::bigint[] as b, $4::numeric[] as n, $5::text[] as k',
        [
          uncachedTextArray(ids, (s) => s),
          uncachedTextArray(times, (s) => s),
          numberArray(cents, (n) => n),
          numberArray(pcts, (n) => n),
          nullableTextArray(keys, (s) => s),
        ],
      ),
    );
    expect(rows[0]!.u).toEqual(ids);
    expect(rows[0]!.ts.map((d) => d.toISOString())).toEqual(times);
    expect(rows[0]!.b.map(Number)).toEqual(cents);
    expect(rows[0]!.n.map(Number)).toEqual(pcts);
    expect(rows[0]!.k).toEqual(keys);
  });

  it('refuses an element that is not of the type, rather than reading it as something else', async () => {
    await expect(
      database.db.executeQuery(
        CompiledQuery.raw('select $1::uuid[] as u', [uncachedTextArray(['not-a-uuid'], (s) => s)]),
      ),
    ).rejects.toMatchObject({ code: '22P02' });
  });
});
