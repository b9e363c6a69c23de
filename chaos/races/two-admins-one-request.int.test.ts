import { describe, expect } from 'vitest';
import type { Answer } from '@updown/api-client';
import { getUserBalances } from '@updown/wallet';
import type { Random } from '../harness/random';
import { depositReal, signUp, type Account } from '../harness/races-accounts';
import type { Connections, Racer } from '../harness/races-http';
import { entriesByKeyPrefix, moneyByType, moneyMoved, movements } from '../harness/races-ledger';
import type { RacePlatform } from '../harness/races-platform';
import { expectAnswer, expectCleanRound, range, shuffle, wallet } from '../harness/races-support';
import { scenario } from '../harness/races-scenario';

type Decision = 'approve' | 'reject';
type Outcome = 'approved' | 'rejected';

interface Target {
  readonly path: 'withdrawals' | 'deposits';
  readonly table: 'withdrawal_requests' | 'deposit_requests';
  readonly label: string;
  readonly id: string;
}

describe('two admins deciding one request', () => {
  scenario(
    'let exactly one decision through per request; the others get 409 and money moves once',
    12,
    async (p) => {
      const admins = [await signUp(p, 'First', 'admin'), await signUp(p, 'Second', 'admin')] as const;
      await p.api.post('/api/admin/settings', { require_deposit_approval: true }, { token: admins[0].token });
      return (p, connections, rng) => decisionRound(p, connections, admins, rng);
    },
    2,
  );
});

/**
 * A pending withdrawal and a pending deposit (which would earn the first-deposit bonus) of one
 * trader, each decided by both admins at once, each admin clicking approve or reject from one to
 * three connections. Exactly one click per request wins; money moves once, as that click says.
 */
async function decisionRound(
  p: RacePlatform,
  connections: Connections,
  admins: readonly [Account, Account],
  rng: Random,
): Promise<void> {
  const trader = await signUp(p, 'Requester');
  // Cash below the bonus minimum, approved before the race, so no bonus is involved yet.
  const funding = await depositReal(p, trader, 1_900);
  await p.api.post(
    '/api/admin/deposits/{id}',
    { action: 'approve' },
    { token: admins[0].token, params: { id: funding.request!.id } },
  );
  const before = await moneyByType(p.db);
  const withdrawCents = rng.int(100, 1_900);
  const depositCents = rng.int(2_000, 20_000);
  const withdrawal = await p.api.post(
    '/api/wallet/withdraw',
    { amount: withdrawCents / 100, account_type: 'real' },
    { token: trader.token },
  );
  const deposit = await depositReal(p, trader, depositCents);
  expect(deposit.status).toBe('pending');

  const targets: Target[] = [
    { path: 'withdrawals', table: 'withdrawal_requests', label: 'Withdrawal', id: withdrawal.request!.id },
    { path: 'deposits', table: 'deposit_requests', label: 'Deposit', id: deposit.request!.id },
  ];
  const clicks = shuffle(
    targets.flatMap((target) =>
      admins.flatMap((admin) => {
        const action = rng.pick<Decision>(['approve', 'reject']);
        return range(rng.int(1, 3)).map(() => ({ target, admin, action }));
      }),
    ),
    rng,
  );
  const answers = await connections.all(
    clicks.map(
      ({ target, admin, action }): Racer<Answer<unknown>> =>
        (api) =>
          api.send(
            'post',
            `/api/admin/${target.path}/{id}`,
            { action },
            { token: admin.token, params: { id: target.id } },
          ),
    ),
  );
  const decided = clicks.map((click, i) => ({ ...click, answer: answers[i]! }));
  const paidOut = (await expectOneDecision(p, targets[0]!, decided)) === 'approved';
  const credited = (await expectOneDecision(p, targets[1]!, decided)) === 'approved';

  const bonusCents = credited ? Math.floor(depositCents / 2) : 0;
  expect(
    (await entriesByKeyPrefix(p.db, `withdrawal:${withdrawal.request!.id}:`)).map((e) => e.kind),
  ).toEqual(['withdrawal', paidOut ? 'withdrawal_payout' : 'withdrawal_reversal']);
  expect(await entriesByKeyPrefix(p.db, `deposit:${deposit.request!.id}`)).toHaveLength(credited ? 1 : 0);
  const bonuses = await p.db.selectFrom('bonuses').selectAll().where('user_id', '=', trader.id).execute();
  expect(bonuses.map((b) => b.amount_cents)).toEqual(credited ? [bonusCents] : []);
  const realChange = (paidOut ? -withdrawCents : 0) + (credited ? depositCents : 0);
  expect(await getUserBalances(p.db, trader.id)).toEqual(
    wallet({ real: 1_900 + realChange, bonus: bonusCents }),
  );
  expect(moneyMoved(before, await moneyByType(p.db))).toEqual(
    movements({
      real: realChange,
      bonus: bonusCents,
      payments_clearing: (paidOut ? withdrawCents : 0) - (credited ? depositCents : 0),
      bonus_pool: -bonusCents,
    }),
  );
  await expectCleanRound(p);
}

/** One 200 for the request, 409 "already <outcome>" for every other click, one audit row, the row decided by the winner. */
async function expectOneDecision(
  p: RacePlatform,
  target: Target,
  decided: readonly { target: Target; admin: Account; action: Decision; answer: Answer<unknown> }[],
): Promise<Outcome> {
  const mine = decided.filter((click) => click.target === target);
  const winners = mine.filter((click) => click.answer.status === 200);
  expect(winners.length, mine.map((click) => click.answer.text).join('\n')).toBe(1);
  const winner = winners[0]!;
  const status: Outcome = winner.action === 'approve' ? 'approved' : 'rejected';
  expectAnswer(winner.answer, 200, { id: target.id, status });
  for (const loser of mine.filter((click) => click !== winner)) {
    expectAnswer(loser.answer, 409, {
      code: 'REQUEST_NOT_PENDING',
      detail: `${target.label} request is already ${status}`,
    });
  }
  const row = await p.db
    .selectFrom(target.table)
    .selectAll()
    .where('id', '=', target.id)
    .executeTakeFirstOrThrow();
  expect([row.status, row.decided_by]).toEqual([status, winner.admin.id]);
  const audits = await p.db.selectFrom('admin_audit').selectAll().where('target', '=', target.id).execute();
  expect(audits.map((a) => [a.action, a.actor_id])).toEqual([
    [`${target.path === 'deposits' ? 'deposit' : 'withdrawal'}.${winner.action}`, winner.admin.id],
  ]);
  return status;
}
