import { describe, expect, it } from 'vitest';
import {
  checkDisputeQuota,
  DailyDisputesCapReached,
  DISPUTE_FILING_WINDOW_MS,
  OPEN_DISPUTES_RETRY_AFTER_SEC,
  OpenDisputesCapReached,
  waitText,
} from './dispute-quota.domain';

const NOW_MS = 1_800_000_000_000;
const HOUR_MS = 60 * 60 * 1000;
const limits = { openPerTraderMax: 2, filedPerTraderPerDayMax: 3 };

function refusal(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('checkDisputeQuota', () => {
  it('lets a trader under both caps file', () => {
    expect(() =>
      checkDisputeQuota(
        { openCount: 1, recentFiledAtMs: [NOW_MS - HOUR_MS, NOW_MS - 2 * HOUR_MS] },
        limits,
        NOW_MS,
      ),
    ).not.toThrow();
  });

  it('refuses at the open cap with the fixed retry hint', () => {
    const error = refusal(() =>
      checkDisputeQuota({ openCount: 2, recentFiledAtMs: [NOW_MS, NOW_MS] }, limits, NOW_MS),
    );
    expect(error).toBeInstanceOf(OpenDisputesCapReached);
    expect(error).toMatchObject({
      code: 'OPEN_DISPUTES_CAP_REACHED',
      retryAfterSec: OPEN_DISPUTES_RETRY_AFTER_SEC,
      message: expect.stringContaining('2 open disputes'),
    });
  });

  it('gives the refusal with the longer wait when both caps bind', () => {
    const fresh = [NOW_MS, NOW_MS, NOW_MS];
    expect(
      refusal(() => checkDisputeQuota({ openCount: 2, recentFiledAtMs: fresh }, limits, NOW_MS)),
    ).toMatchObject({
      code: 'DAILY_DISPUTES_CAP_REACHED',
      retryAfterSec: DISPUTE_FILING_WINDOW_MS / 1000,
    });
    const leavingSoon = [NOW_MS, NOW_MS, NOW_MS - DISPUTE_FILING_WINDOW_MS + 10_000];
    expect(
      refusal(() => checkDisputeQuota({ openCount: 2, recentFiledAtMs: leavingSoon }, limits, NOW_MS)),
    ).toMatchObject({ code: 'OPEN_DISPUTES_CAP_REACHED', retryAfterSec: OPEN_DISPUTES_RETRY_AFTER_SEC });
  });

  it('refuses at the daily cap until the cap-th newest filing leaves the window', () => {
    // Newest first: the slot frees when the third newest (5 h old) turns 24 h old, in 19 h.
    const filed = [NOW_MS - HOUR_MS, NOW_MS - 3 * HOUR_MS, NOW_MS - 5 * HOUR_MS];
    const error = refusal(() => checkDisputeQuota({ openCount: 0, recentFiledAtMs: filed }, limits, NOW_MS));
    expect(error).toBeInstanceOf(DailyDisputesCapReached);
    expect(error).toMatchObject({
      code: 'DAILY_DISPUTES_CAP_REACHED',
      retryAfterSec: 19 * 60 * 60,
      message: 'At most 3 disputes can be filed in 24 hours; try again in 19 h',
    });
  });

  it('counts a filing exactly 24 hours old as out of the window', () => {
    const filed = [NOW_MS - HOUR_MS, NOW_MS - 2 * HOUR_MS, NOW_MS - DISPUTE_FILING_WINDOW_MS];
    expect(() => checkDisputeQuota({ openCount: 0, recentFiledAtMs: filed }, limits, NOW_MS)).not.toThrow();
    const justInside = [NOW_MS - HOUR_MS, NOW_MS - 2 * HOUR_MS, NOW_MS - DISPUTE_FILING_WINDOW_MS + 1];
    expect(
      refusal(() => checkDisputeQuota({ openCount: 0, recentFiledAtMs: justInside }, limits, NOW_MS)),
    ).toMatchObject({ retryAfterSec: 1 });
  });

  it('asks for at least a second, never zero', () => {
    const filed = [NOW_MS, NOW_MS, NOW_MS - DISPUTE_FILING_WINDOW_MS + 1];
    expect(
      refusal(() => checkDisputeQuota({ openCount: 0, recentFiledAtMs: filed }, limits, NOW_MS)),
    ).toMatchObject({ retryAfterSec: 1 });
  });
});

describe('waitText', () => {
  it.each([
    [1, '1 s'],
    [59, '59 s'],
    [60, '1 min'],
    [61, '2 min'],
    [3_599, '1 h'],
    [3_600, '1 h'],
    [3_601, '1 h 1 min'],
    [86_400, '24 h'],
  ])('%i s reads %s', (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
  });
});
