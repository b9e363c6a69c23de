import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, someoneWaitsForALock, type TestDatabase } from '@updown/runtime/testing';
import { lockWallets, userAccountCode, verifyLedger } from '@updown/wallet';
import { walletHarness, type WalletHarness } from '../testing/wallet-harness';

/**
 * The locks wallet commands take, checked one step at a time with `nowait` probes: a probe that
 * would wait fails at once, so these tests show who holds what instead of waiting for a deadlock.
 * Settlement and placement lock a user's bonus row (settlement only), then ledger accounts, then
 * write trade rows (a foreign-key check on the user); wallet commands must fit that order.
 */

let database: TestDatabase;
let h: WalletHarness;

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  h = await walletHarness(database);
});
afterAll(async () => {
  await h.t.close();
  await database.drop();
});

describe('wallet command locks', () => {
  it('hold the user’s wallet against other wallet commands only, not against foreign-key checks', async () => {
    const me = await h.user();
    await database.db.transaction().execute(async (trx) => {
      await lockWallets(trx, [me.id]);
      // What PostgreSQL does for a trade row of this user that a settlement or a placement writes.
      await database.db
        .transaction()
        .execute((other) => sql`select 1 from users where id = ${me.id} for key share nowait`.execute(other));
      // Another wallet command of the same user would wait.
      const other = await database.db.transaction().execute((other) =>
        sql<{
          got: boolean;
        }>`select pg_try_advisory_xact_lock(hashtextextended(${`wallet:${me.id}`}, 0)) as got`.execute(other),
      );
      expect(other.rows[0]!.got).toBe(false);
    });
  });

  it('make a withdrawal wait for a held bonus row before it locks any cash account', async () => {
    const me = await h.user();
    await h.call('POST', '/api/wallet/deposit', me.token, { amount: 100 });
    let withdrawal: ReturnType<WalletHarness['call']> | undefined;
    // Holding the active bonus row, as a settlement of this user's trades does first.
    await database.db.transaction().execute(async (trx) => {
      const held = await trx
        .selectFrom('bonuses')
        .select('id')
        .where('user_id', '=', me.id)
        .where('status', '=', 'active')
        .forNoKeyUpdate()
        .execute();
      expect(held).toHaveLength(1);
      withdrawal = h.call('POST', '/api/wallet/withdraw', me.token, { amount: 30 });
      await someoneWaitsForALock(database.db);
      // Settlement's next step: the user's cash account. Free, so the two cannot wait on each other.
      await sql`select id from ledger_accounts where code = ${userAccountCode(me.id, 'real')} for update nowait`.execute(
        trx,
      );
    });
    const res = await withdrawal!;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ real_balance: 70, bonus_balance: 0, bonus_status: 'forfeited' });
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });

  it('make a deposit that earns the bonus take its accounts in id order, not its cash account first', async () => {
    const me = await h.user();
    let deposit: ReturnType<WalletHarness['call']> | undefined;
    // Holding every bonus-pool shard, as a settlement batch paying some bonus trade may hold one.
    // The shards were created with the schema, so their ids are below this user's accounts.
    await database.db.transaction().execute(async (trx) => {
      await sql`select id from ledger_accounts where code like 'bonus_pool%' for update`.execute(trx);
      deposit = h.call('POST', '/api/wallet/deposit', me.token, { amount: 100 });
      await someoneWaitsForALock(database.db);
      // Settlement's next step: this user's cash account. Posting the deposit before the bonus held
      // it here while waiting for the shard: a cycle. In id order the deposit waits before it.
      await sql`select id from ledger_accounts where code = ${userAccountCode(me.id, 'real')} for update nowait`.execute(
        trx,
      );
    });
    const res = await deposit!;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ real_balance: 100, bonus_balance: 50, bonus_status: 'active' });
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });
});
