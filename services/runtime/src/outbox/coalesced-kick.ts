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
