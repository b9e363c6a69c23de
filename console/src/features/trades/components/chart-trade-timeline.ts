/**
 * Time on the chart: when an expiry line flashes and goes, which bar a trade entered in, and where
 * a time falls on the chart's logical (bar index) axis. All pure; the clock comes in as `nowMs`.
 */

/** The expiry line flashes this long once the trade expires (spec §9: about 0.3 s). */
export const EXPIRY_FLASH_MS = 300;
/** The expiry line is removed this long after the expiry (spec §9: about 2 s later). */
export const EXPIRY_REMOVE_MS = 2000;
/** Countdowns show whole seconds, so the clock ticks on each second. */
export const CLOCK_TICK_MS = 1000;

/** `live` before the expiry, `flash` just after it, `expired` until removal; null once removed. */
export type ExpiryPhase = 'live' | 'flash' | 'expired';

export function expiryPhase(expiryTs: number, nowMs: number): ExpiryPhase | null {
  const sinceExpiryMs = nowMs - expiryTs * 1000;
  if (sinceExpiryMs < 0) return 'live';
  if (sinceExpiryMs < EXPIRY_FLASH_MS) return 'flash';
  if (sinceExpiryMs < EXPIRY_REMOVE_MS) return 'expired';
  return null;
}

/**
 * How long until something on screen changes: the next whole second (countdowns) or the next
 * phase change of any expiry, whichever is sooner.
 */
export function nextClockTickMs(expiries: readonly number[], nowMs: number): number {
  let wait = CLOCK_TICK_MS - (((nowMs % CLOCK_TICK_MS) + CLOCK_TICK_MS) % CLOCK_TICK_MS);
  for (const expiryTs of expiries) {
    for (const offset of [0, EXPIRY_FLASH_MS, EXPIRY_REMOVE_MS]) {
      const due = expiryTs * 1000 + offset - nowMs;
      if (due > 0 && due < wait) wait = due;
    }
  }
  return wait;
}

/**
 * A trade that leaves the active list this close to its `expiry_ts` has expired: the server rounds
 * expiries up to whole seconds and stops listing a trade at its exact expiry, and the list is
 * polled, so it can vanish up to a second and a poll before the countdown reaches zero.
 */
export const VANISH_GRACE_MS = 5000;

/**
 * The trades whose expiry lines are still drawn: everything the server lists, plus trades it has
 * stopped listing because they expired (settlement can be quicker than the 2 s an expiry line
 * stays), until their removal. A trade that vanished well before its expiry is gone for good.
 */
export function retainExpiring<T extends { id: string; expiry_ts: number }>(
  retained: readonly T[],
  incoming: readonly T[],
  nowMs: number,
): T[] {
  const listed = new Set(incoming.map((trade) => trade.id));
  const lingering = retained.filter(
    (trade) =>
      !listed.has(trade.id) &&
      trade.expiry_ts * 1000 - nowMs <= VANISH_GRACE_MS &&
      expiryPhase(trade.expiry_ts, nowMs) !== null,
  );
  return [...incoming, ...lingering];
}

/** The start of the bar (of `timeframeSec`) that contains `createdAt`, in Unix seconds. */
export function entryBarTime(createdAt: string, timeframeSec: number): number {
  const seconds = Math.floor(Date.parse(createdAt) / 1000);
  return Math.floor(seconds / timeframeSec) * timeframeSec;
}

/**
 * Where `timeSec` falls among bars that start at `barTimes` (ascending), as a fractional index:
 * bar i sits at i, a time between two bars in proportion between them, and a time past the last
 * bar (a future expiry) extrapolated at one timeframe per index. Null without bars.
 */
export function timeToBarIndex(
  barTimes: readonly number[],
  timeSec: number,
  timeframeSec: number,
): number | null {
  const count = barTimes.length;
  if (count === 0) return null;
  if (timeSec < barTimes[0]!) return (timeSec - barTimes[0]!) / timeframeSec;
  let low = 0;
  let high = count - 1;
  // The last bar that starts at or before the time.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (barTimes[middle]! <= timeSec) low = middle;
    else high = middle - 1;
  }
  const start = barTimes[low]!;
  const next = low + 1 < count ? barTimes[low + 1]! : start + timeframeSec;
  return low + (timeSec - start) / (next - start);
}
