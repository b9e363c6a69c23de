import type { RetryPolicy } from './bus';

/**
 * Exponential backoff without jitter: each partition has exactly one consumer retrying its head
 * message, so there is no herd of clients to spread out, and deterministic delays keep tests exact.
 */
export function retryDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, 'retryDelayMsMin' | 'retryDelayMsMax'>,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(policy.retryDelayMsMin * 2 ** exponent, policy.retryDelayMsMax);
}

export function resolveRetryPolicy(base: RetryPolicy, override: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...base, ...override };
  if (!Number.isInteger(policy.attemptsMax) || policy.attemptsMax < 1 || policy.attemptsMax > 1_000_000) {
    throw new RangeError(`attemptsMax must be an integer from 1 to 1000000, got ${policy.attemptsMax}`);
  }
  if (policy.retryDelayMsMin < 0 || policy.retryDelayMsMax < policy.retryDelayMsMin) {
    throw new RangeError('retry delays must satisfy 0 <= retryDelayMsMin <= retryDelayMsMax');
  }
  return Object.freeze(policy);
}
