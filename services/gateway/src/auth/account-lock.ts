import type { DomainError } from '@updown/runtime';
import { lockLookbackMs, lockState, retryAfterText } from './auth.domain';
import type { AuthContext } from './auth.context';
import { AccountLocked } from './auth.errors';
import {
  clearFailures,
  failureTimesBefore,
  forgetAttempt,
  pruneFailures,
  recordAttempt,
  type FailureKind,
} from './login-failures.repository';

export type AttemptResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DomainError };

/** Failure rows read per check: the lock rule never needs more than a few times `AUTH_MAX_FAILURES`. */
const FAILURES_SCANNED_MAX = 500;
/** Old rows deleted per attempt: housekeeping with a bounded cost. */
const PRUNE_BATCH = 100;

/**
 * Runs one password or code check for `subject` under the account lock (DESIGN §7, rate limits):
 * the attempt is recorded first (see `recordAttempt`), refused with `AccountLocked` while the
 * account is locked, forgotten on success and kept as a failure otherwise. The lock is checked
 * before any password is hashed, so while locked even the right password is refused.
 */
export async function withAccountLock<T>(
  ctx: AuthContext,
  subject: string,
  kind: FailureKind,
  attempt: () => Promise<AttemptResult<T>>,
): Promise<T> {
  const now = ctx.clock.now();
  const since = new Date(now - lockLookbackMs(ctx.policy.lock));
  const attemptId = await recordAttempt(ctx.db, subject, kind, new Date(now));
  await pruneFailures(ctx.db, since, PRUNE_BATCH);
  const earlier = await failureTimesBefore(ctx.db, {
    subject,
    kind,
    since,
    beforeId: attemptId,
    limit: FAILURES_SCANNED_MAX,
  });
  const state = lockState(earlier, now, ctx.policy.lock);
  if (state.locked) {
    await forgetAttempt(ctx.db, attemptId);
    throw new AccountLocked(retryAfterText(state.until, now));
  }
  const result = await attempt();
  if (!result.ok) throw result.error;
  await clearFailures(ctx.db, subject, kind);
  return result.value;
}
