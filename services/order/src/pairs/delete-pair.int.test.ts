import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPair, normaliseNewPair, readPair } from '@updown/price-ingest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { insertPendingTrades } from '../testing/trades';
import { listPairRisks, lockPairRiskForChange, writePairRiskSettings } from '../risk/risk.repository';
import { deletePair } from './delete-pair.handler';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** A new pair with risk settings of its own, so it has a risk row for the deletion to forget. */
async function pairWithRisk(symbol: string): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await addPair(trx, normaliseNewPair({ symbol, display_name: symbol }), 80);
    await lockPairRiskForChange(trx, symbol);
    await writePairRiskSettings(trx, symbol, {
      capCents: { UP: 100_000, DOWN: null },
      skewMaxPct: 0,
      skewFullAtCents: 100_000,
      lossLimitCents: null,
      lossWindowMin: 60,
    });
  });
}

async function pairAndRisk(symbol: string) {
  return {
    pair: await readPair(database.db, symbol, Date.now()),
    risk: (await listPairRisks(database.db, [symbol])).get(symbol),
  };
}

const remove = (symbol: string) => database.db.transaction().execute((trx) => deletePair(trx, symbol));

describe('deletePair', () => {
  it('deletes a pair with no pending trades and forgets its risk book, answering the pair as it was', async () => {
    await pairWithRisk('DELUSD');
    expect((await pairAndRisk('DELUSD')).risk).toBeDefined();

    const before = await remove('DELUSD');

    expect(before).toMatchObject({ symbol: 'DELUSD', display_name: 'DELUSD', active: true, payout_pct: 80 });
    expect(await pairAndRisk('DELUSD')).toEqual({ pair: undefined, risk: undefined });
  });

  it('refuses a pair with a pending trade with PAIR_HAS_PENDING_TRADES, changing nothing', async () => {
    await pairWithRisk('KEEPUSD');
    const userId = randomUUID();
    await sql`insert into users (id, email, name, password_hash)
              values (${userId}, ${`${userId}@example.com`}, 'Trader', 'x')`.execute(database.db);
    await database.db.transaction().execute((trx) =>
      insertPendingTrades(trx, {
        trades: [{ id: randomUUID(), userId, direction: 'UP', accountType: 'real', amountCents: 1_000 }],
        pair: 'KEEPUSD',
        acceptedAtMs: Date.now(),
        durationSec: 60,
        entryPrice: 1,
      }),
    );
    const before = await pairAndRisk('KEEPUSD');
    expect(before.risk).toMatchObject({ up_open_trades: 1, exposure_cap_up_cents: 100_000 });

    await expect(remove('KEEPUSD')).rejects.toMatchObject({
      code: 'PAIR_HAS_PENDING_TRADES',
      message:
        'Cannot delete KEEPUSD while it has pending trades; disable it and try again after they settle',
    });

    expect(await pairAndRisk('KEEPUSD')).toEqual(before);
  });

  it('refuses an unknown pair as not found', async () => {
    await expect(remove('NOPE')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Unknown pair: NOPE' });
  });
});
