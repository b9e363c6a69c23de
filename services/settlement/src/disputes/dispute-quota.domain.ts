import { DomainError } from '@updown/runtime/errors';

/**
 * How many disputes one trader may file (README "Provable settlement"). Every dispute is replayed
 * at once and waits for a person, so without a cap one trader could file hundreds and bury other
 * traders' disputes in the admins' queue. A trader with a real grievance needs few: one dispute
 * per trade, and only trades settled in the last 24 hours can be disputed at all.
 */
export interface DisputeLimits {
  /** Open (unresolved) disputes one trader may have at once. */
  readonly openPerTraderMax: number;
  /** Disputes one trader may file in any `DISPUTE_FILING_WINDOW_MS`, whatever became of them. */
  readonly filedPerTraderPerDayMax: number;
}

export const DISPUTE_LIMITS_DEFAULT: DisputeLimits = Object.freeze({
  openPerTraderMax: 20,
  filedPerTraderPerDayMax: 50,
});

/** The daily cap counts filings in a sliding window of this length, not per calendar day. */
export const DISPUTE_FILING_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The wait a refusal at the open cap asks for. Its slot frees when an admin resolves one of the
 * trader's disputes, a person's decision with no known time, so this is a hint of when looking
 * again is worth it, not a promise.
 */
export const OPEN_DISPUTES_RETRY_AFTER_SEC = 60 * 60;

/** What one trader has filed, as counted under their filing lock. */
export interface DisputeUsage {
  readonly openCount: number;
  /** When their disputes of the last window were filed, newest first; the newest `filedPerTraderPerDayMax` are enough. */
  readonly recentFiledAtMs: readonly number[];
}

export class OpenDisputesCapReached extends DomainError {
  readonly retryAfterSec = OPEN_DISPUTES_RETRY_AFTER_SEC;
  constructor(max: number) {
    super(
      'OPEN_DISPUTES_CAP_REACHED',
      `You already have ${max} open disputes, the most one trader may have; you can file another once an admin has resolved one of them`,
    );
    this.name = 'OpenDisputesCapReached';
  }
}

export class DailyDisputesCapReached extends DomainError {
  constructor(
    max: number,
    readonly retryAfterSec: number,
  ) {
    super(
      'DAILY_DISPUTES_CAP_REACHED',
      `At most ${max} disputes can be filed in 24 hours; try again in ${waitText(retryAfterSec)}`,
    );
    this.name = 'DailyDisputesCapReached';
  }
}

/**
 * Refuses a filing over either cap. The daily cap's refusal says when the cap-th newest filing of
 * the window leaves it and frees a slot. When both caps bind, the trader can file only once both
 * have freed a slot, so the refusal that asks for the longer wait is the one given.
 */
export function checkDisputeQuota(usage: DisputeUsage, limits: DisputeLimits, nowMs: number): void {
  const open =
    usage.openCount >= limits.openPerTraderMax
      ? new OpenDisputesCapReached(limits.openPerTraderMax)
      : undefined;
  const daily = dailyRefusal(usage.recentFiledAtMs, limits.filedPerTraderPerDayMax, nowMs);
  if (open && daily) throw daily.retryAfterSec > open.retryAfterSec ? daily : open;
  if (open ?? daily) throw open ?? daily;
}

function dailyRefusal(
  recentFiledAtMs: readonly number[],
  max: number,
  nowMs: number,
): DailyDisputesCapReached | undefined {
  const windowStartMs = nowMs - DISPUTE_FILING_WINDOW_MS;
  const inWindow = recentFiledAtMs.filter((atMs) => atMs > windowStartMs);
  if (inWindow.length < max) return undefined;
  // Newest first: the max-th newest filing is the one whose leaving the window frees a slot.
  const freedAtMs = inWindow[max - 1]! + DISPUTE_FILING_WINDOW_MS;
  return new DailyDisputesCapReached(max, Math.max(1, Math.ceil((freedAtMs - nowMs) / 1000)));
}

/** `45 s`, `12 min`, `3 h 5 min`: rounded up, so the trader never comes back too early. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${rest} min`;
}
