import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { Answer, ApiClient } from '@updown/api-client';
import type { Database } from '@updown/runtime';
import { metricValue } from '@updown/runtime/testing';
import { verifyLedger, type UserBalances } from '@updown/wallet';
import type { Random } from './random';
import type { Account, PlaceBody } from './races-accounts';
import type { Connections, Racer } from './races-http';
import { pnlOf, statusFromPrices, type ModelTrade } from './races-model';
import type { RacePlatform } from './races-platform';

/** The steps and checks the race rounds share. */

export const DEMO_GRANT_CENTS = 1_000_000;
/** How long a round waits for settlement or the bonus sweep before it fails. */
const WAIT_MS_MAX = 30_000;
const POLL_MS = 10;
/** A round that waits calls its idle step (a clock jump, say) after this many polls. */
const POLLS_PER_IDLE_STEP = 20;

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

export function shuffle<T>(items: readonly T[], rng: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` until it holds; `onIdle` runs every few polls while it does not. */
export async function waitUntil(
  what: string,
  done: () => Promise<boolean>,
  onIdle?: () => void,
): Promise<void> {
  const deadline = Date.now() + WAIT_MS_MAX;
  for (let polls = 1; !(await done()); polls++) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (onIdle && polls % POLLS_PER_IDLE_STEP === 0) onIdle();
    await sleep(POLL_MS);
  }
}

/** A placement as a racer sends it, under `idempotencyKey` when given. */
export function placeRequest(who: Account, body: PlaceBody, idempotencyKey?: string) {
  return (api: ApiClient) =>
    api.send('post', '/api/trades/place', body, { token: who.token, idempotencyKey });
}

/** A deposit or a withdrawal as a racer sends it, under `idempotencyKey` when given. */
export function walletRequest(
  who: Account,
  command: 'deposit' | 'withdraw',
  cents: number,
  accountType: 'real' | 'demo',
  idempotencyKey?: string,
) {
  return (api: ApiClient) =>
    api.send(
      'post',
      `/api/wallet/${command}`,
      { amount: cents / 100, account_type: accountType },
      { token: who.token, idempotencyKey },
    );
}

/** The same request on every connection at once. */
export function burst<T>(connections: Connections, racer: Racer<T>): Promise<T[]> {
  return connections.all(range(connections.size).map(() => racer));
}

/** A user's seven accounts: what the round says, zero elsewhere, and the demo grant untouched. */
export function wallet(expected: Partial<UserBalances>): UserBalances {
  return {
    real: 0,
    bonus: 0,
    demo: DEMO_GRANT_CENTS,
    real_in_play: 0,
    bonus_in_play: 0,
    demo_in_play: 0,
    withdrawal_hold: 0,
    ...expected,
  };
}

export function expectAnswer(answer: Answer<unknown>, status: number, body: Record<string, unknown>): void {
  expect({ status: answer.status, body: answer.body }, answer.text).toMatchObject({ status, body });
}

/** Every answer carries the same body, byte for byte. */
export function expectIdentical(answers: readonly Answer<unknown>[]): void {
  expect(new Set(answers.map((a) => a.text)).size, answers.map((a) => a.text).join('\n')).toBe(1);
}

/**
 * The end of every round: the ledger verifies (entries balance, balances match postings, nothing
 * negative), and no settlement pass failed, not even one that a retry then made good (a deadlock
 * that settlement lost would show only here).
 */
export async function expectCleanRound(p: RacePlatform): Promise<void> {
  const report = await verifyLedger(p.db);
  expect(report.ok, JSON.stringify(report.violations)).toBe(true);
  expect(await metricValue(p.platform.registry, 'updown_settlement_failures_total')).toBe(0);
}

export async function tradesOf(db: Kysely<Database>, ids: readonly string[]) {
  const rows = await db
    .selectFrom('trades')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  expect(rows).toHaveLength(ids.length);
  return rows;
}

export type TradeRow = Awaited<ReturnType<typeof tradesOf>>[number];

export async function pendingCount(db: Kysely<Database>, ids: readonly string[]): Promise<number> {
  const rows = await db
    .selectFrom('trades')
    .select('id')
    .where('id', 'in', [...ids])
    .where('status', '=', 'pending')
    .execute();
  return rows.length;
}

/** The settled trade as the model sees it, after checking its status and P/L against the model. */
export function modelOf(row: TradeRow): ModelTrade {
  const trade: ModelTrade = {
    direction: row.direction,
    amountCents: row.amount_cents,
    stakeCashCents: row.stake_cash_cents,
    stakeBonusCents: row.stake_bonus_cents,
    payoutPct: row.payout_pct,
    entryPrice: row.entry_price,
    exitPrice: row.exit_price,
    status: row.status,
    pnlCents: row.pnl_cents,
  };
  expect(row.status, `trade ${row.id}`).toBe(statusFromPrices(trade));
  expect(row.pnl_cents, `trade ${row.id}`).toBe(pnlOf(trade));
  return trade;
}
