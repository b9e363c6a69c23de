import { randomUUID } from 'node:crypto';
import type { Answer, ApiClient } from '@updown/api-client';
import { ownDocumentForm } from '@updown/accounts/testing';
import type { BodyOf } from '@updown/schemas/openapi';
import { dollars, outcomeOf, type Outcome } from './api';
import { firstDepositBonusCents, type AccountType, type AckedOp, type Direction } from './model';

/**
 * One operation of the workload against the gateway, with the rule for an unknown outcome: retry
 * the very same request (same `Idempotency-Key`) until the answer decides it. A retry must return
 * the first result, so the op is then known to have happened exactly once, or not at all.
 */

const UNKNOWN_RETRY_DEADLINE_MS = 240_000;
const RETRY_DELAY_MS_MIN = 100;
const RETRY_DELAY_MS_MAX = 2_000;

export interface OpContext {
  readonly api: ApiClient;
  readonly adminToken: () => string;
  /** Counts requests whose outcome was unknown at first and had to be learned by a retry. */
  readonly onUnknown: (what: string, reason: string) => void;
}

export interface TraderState {
  readonly userId: string;
  readonly token: string;
  /** Cash the user surely holds: deposits − stakes − withdrawals + rejected withdrawals (wins not yet counted). */
  realFloorCents: number;
  demoFloorCents: number;
  bonusActive: boolean;
  bonusEverCredited: boolean;
  bonusAmountCents: number;
  /** Every real stake ever placed: an upper bound of the wagering turnover. */
  realStakesCents: number;
  readonly pendingWithdrawals: { id: string; amountCents: number }[];
}

export type OpResult = { readonly acked: AckedOp | null; readonly refused?: string };

/** An outcome that decides the op, and whether an attempt before it was unknown. */
export type Decided<T> = Exclude<Outcome<T>, { kind: 'unknown' }> & { readonly retried: boolean };

/** Sends one request until its outcome is decided (ok or refused). */
export async function decided<T>(
  ctx: OpContext,
  what: string,
  send: () => Promise<Answer<T>>,
): Promise<Decided<T>> {
  const deadline = Date.now() + UNKNOWN_RETRY_DEADLINE_MS;
  let delay = RETRY_DELAY_MS_MIN;
  let lastReason = '';
  for (let attempt = 0; ; attempt++) {
    const outcome = await outcomeOf(send);
    if (outcome.kind !== 'unknown') return { ...outcome, retried: attempt > 0 };
    if (attempt === 0) ctx.onUnknown(what, outcome.reason);
    lastReason = outcome.reason;
    if (Date.now() > deadline) {
      throw new Error(`${what}: outcome still unknown after ${UNKNOWN_RETRY_DEADLINE_MS} ms (${lastReason})`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, RETRY_DELAY_MS_MAX);
  }
}

export async function placeTrade(
  ctx: OpContext,
  user: TraderState,
  input: { pair: string; direction: Direction; amountCents: number; account: AccountType },
): Promise<OpResult> {
  const key = randomUUID();
  const body: BodyOf<'/api/trades/place', 'post'> = {
    pair: input.pair,
    direction: input.direction,
    amount: dollars(input.amountCents),
    duration: 60,
    account_type: input.account,
  };
  const outcome = await decided(ctx, `place ${key}`, () =>
    ctx.api.send('post', '/api/trades/place', body, { token: user.token, idempotencyKey: key }),
  );
  if (outcome.kind === 'refused') return { acked: null, refused: `place ${outcome.status} ${outcome.code}` };
  const trade = outcome.body;
  if (input.account === 'real') {
    user.realFloorCents -= input.amountCents;
    user.realStakesCents += input.amountCents;
  } else user.demoFloorCents -= input.amountCents;
  return {
    acked: {
      kind: 'place',
      userId: user.userId,
      tradeId: trade.id,
      pair: input.pair,
      direction: input.direction,
      account: input.account,
      amountCents: input.amountCents,
      entryPrice: trade.entry_price,
      payoutPct: trade.payout_pct,
    },
  };
}

export async function deposit(
  ctx: OpContext,
  user: TraderState,
  input: { account: AccountType; amountCents: number },
): Promise<OpResult> {
  const key = randomUUID();
  const body = { amount: dollars(input.amountCents), account_type: input.account };
  const outcome = await decided(ctx, `deposit ${key}`, () =>
    ctx.api.send('post', '/api/wallet/deposit', body, { token: user.token, idempotencyKey: key }),
  );
  if (outcome.kind === 'refused')
    return { acked: null, refused: `deposit ${outcome.status} ${outcome.code}` };
  if (input.account === 'demo') user.demoFloorCents += input.amountCents;
  else {
    if (outcome.body.status !== 'completed' || !outcome.body.request) {
      throw new Error(
        `real deposit ${key} answered ${JSON.stringify(outcome.body)}; approval is not required`,
      );
    }
    user.realFloorCents += input.amountCents;
    const bonusCents = firstDepositBonusCents(input.amountCents);
    if (!user.bonusEverCredited && bonusCents > 0) {
      user.bonusActive = true;
      user.bonusEverCredited = true;
      user.bonusAmountCents = bonusCents;
    }
  }
  return {
    acked: {
      kind: 'deposit',
      userId: user.userId,
      account: input.account,
      amountCents: input.amountCents,
      requestId: outcome.body.request?.id ?? null,
    },
  };
}

export async function withdraw(ctx: OpContext, user: TraderState, amountCents: number): Promise<OpResult> {
  const key = randomUUID();
  const body = { amount: dollars(amountCents), account_type: 'real' } as const;
  const outcome = await decided(ctx, `withdraw ${key}`, () =>
    ctx.api.send('post', '/api/wallet/withdraw', body, { token: user.token, idempotencyKey: key }),
  );
  if (outcome.kind === 'refused')
    return { acked: null, refused: `withdraw ${outcome.status} ${outcome.code}` };
  const request = outcome.body.request;
  if (!request)
    throw new Error(`withdrawal ${key} answered without a request: ${JSON.stringify(outcome.body)}`);
  user.realFloorCents -= amountCents;
  user.bonusActive = false;
  user.pendingWithdrawals.push({ id: request.id, amountCents });
  return { acked: { kind: 'withdraw', userId: user.userId, amountCents, requestId: request.id } };
}

/**
 * An admin decision. The route takes no idempotency key, but a request can be decided only once:
 * a retry of a decision that did commit is refused with `REQUEST_NOT_PENDING` naming the status,
 * which tells the harness the first attempt's fate.
 */
export async function decideWithdrawal(
  ctx: OpContext,
  user: TraderState,
  decision: 'approve' | 'reject',
): Promise<OpResult> {
  const request = user.pendingWithdrawals.shift();
  if (!request) throw new Error('no pending withdrawal to decide');
  const wanted = decision === 'approve' ? 'approved' : 'rejected';
  const outcome = await decided(ctx, `decide ${request.id}`, () =>
    ctx.api.send(
      'post',
      '/api/admin/withdrawals/{id}',
      { action: decision },
      { token: ctx.adminToken(), params: { id: request.id } },
    ),
  );
  if (outcome.kind === 'refused') {
    const already = /already (approved|rejected)/.exec(outcome.detail)?.[1];
    if (!(outcome.retried && outcome.code === 'REQUEST_NOT_PENDING' && already === wanted)) {
      throw new Error(
        `deciding withdrawal ${request.id} (${decision}) refused: ${outcome.code} ${outcome.detail}`,
      );
    }
  }
  if (decision === 'reject') user.realFloorCents += request.amountCents;
  return {
    acked: {
      kind: 'decide',
      userId: user.userId,
      requestId: request.id,
      amountCents: request.amountCents,
      decision,
    },
  };
}

/**
 * Cancel takes no idempotency key either; only this worker ends this user's bonus, so after an
 * unknown first attempt a `NO_ACTIVE_BONUS` refusal means the first attempt did cancel it.
 */
export async function cancelBonus(ctx: OpContext, user: TraderState): Promise<OpResult> {
  const outcome = await decided(ctx, `cancel-bonus ${user.userId}`, () =>
    ctx.api.send('post', '/api/wallet/cancel-bonus', undefined, { token: user.token }),
  );
  if (outcome.kind === 'refused' && !(outcome.retried && outcome.code === 'NO_ACTIVE_BONUS')) {
    throw new Error(`cancelling an active bonus refused: ${outcome.code} ${outcome.detail}`);
  }
  user.bonusActive = false;
  return { acked: { kind: 'cancel_bonus', userId: user.userId } };
}

/**
 * Verifies a trader's identity as the console does, so their withdrawals are taken: a photo ID and
 * a proof of address of their own (each a PDF no other trader sends), a submission, and the admin's
 * approval. Every step is retried through crashes; a step that had committed before a crash answers
 * 409 on its retry (already pending, already decided), which counts as done.
 */
export async function verifyIdentity(
  ctx: OpContext,
  user: { userId: string; token: string },
  fullName: string,
): Promise<void> {
  for (const kind of ['photo_id', 'proof_of_address'] as const) {
    const outcome = await decided(ctx, `upload ${kind} ${user.userId}`, () =>
      ctx.api.send('post', '/api/identity/documents', ownDocumentForm(user.userId, kind), {
        token: user.token,
      }),
    );
    if (outcome.kind === 'refused' && outcome.code !== 'VERIFICATION_LOCKED') {
      throw new Error(`uploading ${kind} for ${user.userId}: ${outcome.code} ${outcome.detail}`);
    }
  }
  const submitted = await decided(ctx, `submit identity ${user.userId}`, () =>
    ctx.api.send(
      'post',
      '/api/identity/submit',
      { full_name: fullName, date_of_birth: '1990-01-01' },
      { token: user.token },
    ),
  );
  if (submitted.kind === 'refused' && submitted.code !== 'VERIFICATION_LOCKED') {
    throw new Error(`submitting identity of ${user.userId}: ${submitted.code} ${submitted.detail}`);
  }
  const queue = await decided(ctx, 'verification queue', () =>
    ctx.api.send('get', '/api/admin/verifications', undefined, {
      token: ctx.adminToken(),
      query: { status: 'all' },
    }),
  );
  if (queue.kind !== 'ok') throw new Error(`verification queue: ${queue.code}`);
  const submission = queue.body.find((s) => s.user_id === user.userId);
  if (!submission) throw new Error(`no verification submitted by ${user.userId}`);
  if (submission.status === 'verified') return;
  const approved = await decided(ctx, `approve identity ${user.userId}`, () =>
    ctx.api.send(
      'post',
      '/api/admin/verifications/{id}',
      { action: 'approve' },
      { token: ctx.adminToken(), params: { id: submission.id } },
    ),
  );
  if (approved.kind === 'refused' && approved.code !== 'VERIFICATION_NOT_PENDING') {
    throw new Error(`approving identity of ${user.userId}: ${approved.code} ${approved.detail}`);
  }
}
