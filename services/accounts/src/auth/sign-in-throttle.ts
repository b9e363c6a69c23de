import type { DomainError } from '@updown/runtime';
import { retryAfterText } from './auth.domain';
import type { AccountsContext } from './accounts.context';
import { ExtraVerificationRequired, SignInBusy, SignInThrottled } from './auth.errors';
import { addressKey, decideAttempt, retryAfterSec, type ThrottleDecision } from './sign-in-throttle.domain';
import {
  clearFailures,
  forgetAttempt,
  isKnownAddress,
  lockThrottleKeys,
  PG_LOCK_NOT_AVAILABLE,
  pruneFailures,
  recordAttempt,
  rememberAddress,
  throttleState,
  type FailureKind,
  type ThrottleKey,
} from './sign-in-throttle.repository';

export type AttemptResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DomainError };

export interface SignInAttempt {
  /** The normalised email for a password, the user id for a two-factor code. */
  readonly subject: string;
  readonly kind: FailureKind;
  /** The client address as the socket reports it (`request.ip`). */
  readonly clientAddress: string;
  /**
   * What the per-account ceiling does to an address the account never signed in from (see
   * `AttemptFacts.accountCeiling`): a password sign-in is asked for the extra step unless the
   * request `codeSent` with the password; a two-factor code is refused; a signed-in user's password
   * change is not concerned.
   */
  readonly accountCeiling:
    { readonly rule: 'extra_step'; readonly codeSent: boolean } | { readonly rule: 'refuse' | 'none' };
}

/** Failures counted for one account on one address: the delay reaches its cap far below this. */
const PAIR_SCAN_MAX = 1000;
/** Old rows deleted per attempt: housekeeping with a bounded cost. */
const PRUNE_BATCH = 100;
/** The longest an attempt waits for another on the same address or account to be admitted. */
const LOCK_WAIT_MS_MAX = 2000;
/** Addresses kept per account: the most recently used, enough for a person's devices and places. */
const KNOWN_ADDRESSES_PER_ACCOUNT_MAX = 20;
/** An address stays known this long after its last completed sign-in. */
const KNOWN_ADDRESS_TTL_MS = 90 * 24 * 3600 * 1000;

/**
 * Runs one password or code check under the sign-in throttle (README "Rate limits"). The attempt
 * is admitted or refused (429, with `retryAfterSec`) before `check` runs, so a refused attempt
 * never has its password hashed, even the right one, and is not recorded. An admitted attempt is
 * recorded as a failure before it is checked (see `recordAttempt`), kept as one if the check
 * fails, and cleared with that account's other failures on this address if it succeeds.
 */
export async function withSignInThrottle<T>(
  ctx: AccountsContext,
  attempt: SignInAttempt,
  check: () => Promise<AttemptResult<T>>,
  onFailure?: (pairFailures: number) => Promise<void>,
): Promise<T> {
  const key: ThrottleKey = {
    subject: attempt.subject,
    kind: attempt.kind,
    address: addressKey(attempt.clientAddress),
  };
  const now = ctx.clock.nowMs();
  const { attemptId, pairFailures } = await admit(ctx, key, attempt.accountCeiling, now);
  await pruneFailures(ctx.db, new Date(now - ctx.policy.throttle.windowMs), PRUNE_BATCH);
  let result: AttemptResult<T>;
  try {
    result = await check();
  } catch (error) {
    // Not checked (the hashing queue was full, the database failed): that was no guess.
    await forgetAttempt(ctx.db, attemptId).catch((forgetError: unknown) =>
      ctx.logger.warn({ err: forgetError }, 'an unchecked sign-in attempt stays counted as a failure'),
    );
    throw error;
  }
  if (!result.ok) {
    // The failures on this account and address so far, this one included (it was recorded).
    await onFailure?.(pairFailures + 1);
    throw result.error;
  }
  await clearFailures(ctx.db, key);
  return result.value;
}

/**
 * Decides under the locks of the attempt's address and account (so attempts arriving together
 * are decided one after the other, each counting those before it) and records an admitted
 * attempt before the locks are released. Returns the recorded attempt's id and how many failures
 * the account had on this address before it.
 */
async function admit(
  ctx: AccountsContext,
  key: ThrottleKey,
  accountRule: SignInAttempt['accountCeiling'],
  now: number,
): Promise<{ attemptId: number; pairFailures: number }> {
  const policy = ctx.policy.throttle;
  const since = new Date(now - policy.windowMs);
  const outcome = await ctx.db
    .transaction()
    .execute(async (trx) => {
      await lockThrottleKeys(trx, key, LOCK_WAIT_MS_MAX);
      const state = await throttleState(trx, key, {
        since,
        pairScanMax: PAIR_SCAN_MAX,
        addressMax: policy.addressFailuresMax,
        accountMax: policy.accountFailuresMax,
      });
      const accountCeiling = accountRule.rule;
      // Only read when it can matter: the account is at its ceiling.
      const knownAddress =
        accountCeiling !== 'none' &&
        state.accountCeilingFailureAt !== null &&
        (await isKnownAddress(trx, key, new Date(now - KNOWN_ADDRESS_TTL_MS)));
      const codeSent = accountRule.rule === 'extra_step' && accountRule.codeSent;
      const decision = decideAttempt({ state, accountCeiling, knownAddress, codeSent }, now, policy);
      if (decision.action !== 'check') return { admitted: false, decision } as const;
      const attemptId = await recordAttempt(trx, key, new Date(now));
      return { admitted: true, attemptId, pairFailures: state.pairFailures } as const;
    })
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === PG_LOCK_NOT_AVAILABLE) throw new SignInBusy();
      throw error;
    });
  if (!outcome.admitted) throw refusal(outcome.decision, now);
  return { attemptId: outcome.attemptId, pairFailures: outcome.pairFailures };
}

function refusal(decision: Exclude<ThrottleDecision, { action: 'check' }>, now: number): DomainError {
  const wait = retryAfterText(decision.untilMs, now);
  const seconds = retryAfterSec(decision.untilMs, now);
  return decision.action === 'extra_step'
    ? new ExtraVerificationRequired(wait, seconds)
    : new SignInThrottled(decision.scope, wait, seconds);
}

/**
 * Remembers that `userId` completed a sign-in (a session started) from this client address, which
 * the per-account ceiling then spares. Called once the last factor was checked.
 */
export async function rememberSignIn(
  ctx: AccountsContext,
  userId: string,
  clientAddress: string,
): Promise<void> {
  const now = ctx.clock.nowMs();
  await rememberAddress(
    ctx.db,
    { userId, address: addressKey(clientAddress), at: new Date(now) },
    {
      keepMax: KNOWN_ADDRESSES_PER_ACCOUNT_MAX,
      staleBefore: new Date(now - KNOWN_ADDRESS_TTL_MS),
      pruneLimit: PRUNE_BATCH,
    },
  );
}
