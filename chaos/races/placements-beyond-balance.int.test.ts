import { describe, expect } from 'vitest';
import { getUserBalances } from '@updown/wallet';
import type { Random } from '../harness/random';
import { depositReal, signUp } from '../harness/races-accounts';
import type { Connections } from '../harness/races-http';
import { moneyByType, moneyMoved, movements } from '../harness/races-ledger';
import { sum } from '../harness/races-model';
import type { RacePlatform } from '../harness/races-platform';
import {
  expectAnswer,
  expectCleanRound,
  placeRequest,
  range,
  tradesOf,
  wallet,
} from '../harness/races-support';
import { PAIR, scenario } from '../harness/races-scenario';

describe('placements beyond the balance', () => {
  scenario(
    'accept exactly the stakes cash then bonus cover; the rest get 400 Insufficient balance',
    40,
    async () => (p, connections, rng, n) => placementRound(p, connections, rng, n % 2 === 0),
    1,
  );
});

/**
 * One trader, N placements of one stake at once, the stakes summing past cash plus bonus: exactly
 * floor(funds / stake) are accepted, their stakes taken from cash first and then from bonus.
 */
async function placementRound(
  p: RacePlatform,
  connections: Connections,
  rng: Random,
  withBonus: boolean,
): Promise<void> {
  // A first deposit of $20 or more earns a 50% bonus; a smaller one leaves the trader with cash only.
  const depositCents = withBonus ? rng.int(2_000, 20_000) : rng.int(500, 1_999);
  const bonusCents = withBonus ? Math.floor(depositCents / 2) : 0;
  const fundsCents = depositCents + bonusCents;
  // At most 30 stakes fit; with a bonus, a stake is at most 20% of it.
  const stakeCents = rng.int(
    Math.max(100, Math.ceil(fundsCents / 30)),
    withBonus ? Math.floor(bonusCents / 5) : Math.floor(depositCents / 3),
  );
  const fits = Math.floor(fundsCents / stakeCents);
  const attempts = fits + rng.int(3, connections.size - 30);
  const trader = await signUp(p, 'Placer');
  const before = await moneyByType(p.db);
  await depositReal(p, trader, depositCents);
  await p.freshTick(PAIR);

  const answers = await connections.all(
    range(attempts).map((i) =>
      placeRequest(trader, {
        pair: PAIR,
        direction: i % 2 === 0 ? 'UP' : 'DOWN',
        amount: stakeCents / 100,
        duration: 3600,
        account_type: 'real',
      }),
    ),
  );
  const accepted = answers.filter((answer) => answer.status === 201);
  expect(accepted.length, answers.map((a) => a.status).join(',')).toBe(fits);
  for (const answer of answers.filter((a) => a.status !== 201)) {
    expectAnswer(answer, 400, { detail: 'Insufficient balance', code: 'INSUFFICIENT_FUNDS' });
  }

  const cashUsed = Math.min(depositCents, fits * stakeCents);
  const bonusUsed = fits * stakeCents - cashUsed;
  const expected = {
    real: depositCents - cashUsed,
    bonus: bonusCents - bonusUsed,
    real_in_play: cashUsed,
    bonus_in_play: bonusUsed,
  };
  expect(await getUserBalances(p.db, trader.id)).toEqual(wallet(expected));
  const trades = await tradesOf(
    p.db,
    accepted.map((answer) => answer.body!.id),
  );
  expect(sum(trades, (t) => t.stake_cash_cents)).toBe(cashUsed);
  // Cash first: only the trade that emptied the cash can have taken from both.
  expect(trades.filter((t) => t.stake_cash_cents > 0 && t.stake_bonus_cents > 0).length).toBeLessThanOrEqual(
    1,
  );
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({ ...expected, payments_clearing: -depositCents, bonus_pool: -bonusCents }),
  );
  await expectCleanRound(p);
}
