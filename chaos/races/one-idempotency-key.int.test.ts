import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { getUserBalances } from '@updown/wallet';
import type { Random } from '../harness/random';
import { depositReal, signUp, type Account, type PlaceBody } from '../harness/races-accounts';
import type { Connections } from '../harness/races-http';
import { moneyByType, moneyMoved, movements } from '../harness/races-ledger';
import type { RacePlatform } from '../harness/races-platform';
import {
  burst,
  DEMO_GRANT_CENTS,
  expectAnswer,
  expectCleanRound,
  expectIdentical,
  placeRequest,
  range,
  shuffle,
  wallet,
  walletRequest,
} from '../harness/races-support';
import { PAIR, scenario } from '../harness/races-scenario';

describe('one Idempotency-Key from 20 connections', () => {
  scenario(
    'makes one trade, one deposit, one top-up and one withdrawal; another body is 409',
    20,
    async () => idempotencyRound,
    5,
  );
});

/**
 * The same request with one key from 20 connections at once, for a trade, a real deposit (which
 * earns the bonus once), a demo top-up and a withdrawal (which forfeits it once); then the same
 * key with another body, alone and, for trades, mixed into the burst.
 */
async function idempotencyRound(p: RacePlatform, connections: Connections, rng: Random): Promise<void> {
  const trader = await signUp(p, 'Retrier');
  const before = await moneyByType(p.db);
  await depositReal(p, trader, 1_900);
  await p.freshTick(PAIR);
  const stakedCents = 2 * (await racePlacementKeys(p, connections, rng, trader));

  const depositCents = rng.int(2_000, 10_000);
  const topUpCents = rng.int(100, 100_000);
  const withdrawCents = rng.int(100, 1_900 + depositCents - stakedCents);
  await raceWalletKey(connections, trader, 'deposit', depositCents, 'real');
  await raceWalletKey(connections, trader, 'deposit', topUpCents, 'demo');
  await raceWalletKey(connections, trader, 'withdraw', withdrawCents, 'real');
  const requests = async (table: 'deposit_requests' | 'withdrawal_requests') =>
    (await p.db.selectFrom(table).select('id').where('user_id', '=', trader.id).execute()).length;
  expect([await requests('deposit_requests'), await requests('withdrawal_requests')]).toEqual([2, 1]);
  const bonuses = await p.db.selectFrom('bonuses').selectAll().where('user_id', '=', trader.id).execute();
  expect(bonuses.map((b) => [b.amount_cents, b.status])).toEqual([
    [Math.floor(depositCents / 2), 'forfeited'],
  ]);

  const expected = {
    real: 1_900 + depositCents - stakedCents - withdrawCents,
    real_in_play: stakedCents,
    withdrawal_hold: withdrawCents,
  };
  expect(await getUserBalances(p.db, trader.id)).toEqual(
    wallet({ ...expected, demo: DEMO_GRANT_CENTS + topUpCents }),
  );
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({
      ...expected,
      payments_clearing: -(1_900 + depositCents),
      demo: topUpCents,
      demo_issuance: -topUpCents,
    }),
  );
  await expectCleanRound(p);
}

/**
 * One placement body under one key from every connection: one 201, the rest 200 with the same
 * body; the key with another amount is 409. Then two bodies mixed under a new key: the first to
 * commit is the trade, every request with the other body is 409. Returns the stake of each trade.
 */
async function racePlacementKeys(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  trader: Account,
): Promise<number> {
  const stakeCents = rng.int(100, 600);
  const body: PlaceBody = {
    pair: PAIR,
    direction: rng.pick(['UP', 'DOWN'] as const),
    amount: stakeCents / 100,
    duration: 3600,
    account_type: 'real',
  };
  const key = randomUUID();
  const placed = await burst(connections, placeRequest(trader, body, key));
  expect(placed.map((a) => a.status).sort()).toEqual([...range(connections.size - 1).map(() => 200), 201]);
  expectIdentical(placed);
  const otherAmount = placeRequest(trader, { ...body, amount: (stakeCents + 100) / 100 }, key);
  expectAnswer(await connections.send(0, otherAmount), 409, { code: 'IDEMPOTENCY_CONFLICT' });

  const mixedKey = randomUUID();
  const other: PlaceBody = { ...body, direction: body.direction === 'UP' ? 'DOWN' : 'UP' };
  const mixed = shuffle(
    range(connections.size).map((i) => (i % 2 === 0 ? body : other)),
    rng,
  );
  const answers = await connections.all(mixed.map((b) => placeRequest(trader, b, mixedKey)));
  const first = mixed[answers.findIndex((a) => a.status === 201)];
  expect(first, answers.map((a) => a.text).join('\n')).toBeDefined();
  const sameBody = answers.filter((_, i) => mixed[i] === first);
  expect(sameBody.map((a) => a.status).sort()).toEqual([...range(sameBody.length - 1).map(() => 200), 201]);
  expectIdentical(sameBody);
  for (const answer of answers.filter((_, i) => mixed[i] !== first)) {
    expectAnswer(answer, 409, { code: 'IDEMPOTENCY_CONFLICT' });
  }
  const trades = await p.db.selectFrom('trades').selectAll().where('user_id', '=', trader.id).execute();
  expect(trades.map((t) => t.idempotency_key).sort()).toEqual([key, mixedKey].sort());
  return stakeCents;
}

/** One wallet command under one key from every connection: 200 with one body; another amount is 409. */
async function raceWalletKey(
  connections: Connections,
  trader: Account,
  command: 'deposit' | 'withdraw',
  cents: number,
  accountType: 'real' | 'demo',
): Promise<void> {
  const key = randomUUID();
  const answers = await burst(connections, walletRequest(trader, command, cents, accountType, key));
  expect(answers.map((a) => a.status)).toEqual(range(connections.size).map(() => 200));
  expectIdentical(answers);
  const otherAmount = walletRequest(trader, command, cents + 1, accountType, key);
  expectAnswer(await connections.send(0, otherAmount), 409, { code: 'IDEMPOTENCY_CONFLICT' });
}
