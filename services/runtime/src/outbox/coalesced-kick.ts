/**
 * How a process wakes its outbox relay, the same in the single process and in each service run
 * alone. Most often a commit wakes the relay. Each relay pass is a transaction of its own (advisory
 * lock, read, publish, move the cursor, commit), so at low rates one pass followed every
 * placement: 1.8 write transactions per placement instead of one, and a pass the next placement's
 * commit could queue behind. Passes at most every `kickIntervalMs` publish together what committed meanwhile.
 * The events' consumers need a trade's `trades.opened.v1` before its expiry, at least a minute
 * away; the relay's own poll used to allow 100 ms. Every writer of a source's rows (order and
 * settlement) wakes its process's relay after its commit, so the poll is only the safety net for
 * a wake-up lost in a crash: once a second.
 */
export const RELAY_WAKE = Object.freeze({ kickIntervalMs: 50, pollIntervalMs: 1_000 });

/**
 * `kick` at most once per `intervalMs`: the first call kicks at once, later calls within the
 * interval are folded into one kick at its end. For an `OutboxRelay`'s `kick` after each commit:
 * each relay pass is a transaction with its own WAL flush, so passes at most this often publish
 * together what committed meanwhile. Real time, not the trading clock: a test's manual
 * clock must not hold events back.
 */
export function coalescedKick(kick: () => void, intervalMs: number): (() => void) & { cancel(): void } {
  let lastAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    lastAt = performance.now();
    kick();
  };
  const coalesced = () => {
    if (timer) return;
    const waitMs = lastAt + intervalMs - performance.now();
    if (waitMs <= 0) fire();
    else timer = setTimeout(fire, waitMs);
  };
  return Object.assign(coalesced, {
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  });
}
