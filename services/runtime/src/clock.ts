/**
 * Time as a dependency. Production code takes a `Clock`; tests pass a `ManualClock` and move it.
 * Timers go through the clock too, so a test can fire a 30-day expiry job by advancing time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, by this clock. */
  nowMs(): number;
  /** Calls `fn` after `ms` of this clock's time; returns a function that cancels it. */
  setTimeout(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    return () => clearTimeout(handle);
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  private timers: PendingTimer[] = [];
  private seq = 0;

  constructor(private current: number = Date.UTC(2026, 0, 1)) {}

  nowMs(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): () => void {
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward, firing every timer that falls due, in order of due time. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      due.fn();
    }
    this.current = target;
  }

  set(epochMs: number): void {
    if (epochMs < this.current) throw new Error('ManualClock cannot move backwards');
    this.advance(epochMs - this.current);
  }
}

/** Node clamps longer timer delays to 1 ms, so a far-off timer is armed in steps of at most this. */
const REAL_DELAY_MS_MAX = 2 ** 31 - 1;

interface OffsetTimer extends PendingTimer {
  handle: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Real time plus an offset: everything runs at the normal pace (a browser test needs a live price
 * feed and real network waits), but `advance` jumps ahead, so a 60 s trade expires without a 60 s
 * wait. Timers are kept in this clock's time; a jump fires the ones that fell due, in due order,
 * and re-arms the rest for their shorter remaining wait.
 */
export class OffsetClock implements Clock {
  private readonly timers = new Set<OffsetTimer>();
  private offsetMs = 0;
  private seq = 0;

  constructor(private readonly realNow: () => number = () => Date.now()) {}

  nowMs(): number {
    return this.realNow() + this.offsetMs;
  }

  /** How far this clock runs ahead of real time. */
  offset(): number {
    return this.offsetMs;
  }

  setTimeout(fn: () => void, ms: number): () => void {
    const timer: OffsetTimer = { at: this.nowMs() + Math.max(0, ms), seq: this.seq++, fn, handle: undefined };
    this.timers.add(timer);
    this.arm(timer);
    return () => {
      clearTimeout(timer.handle);
      this.timers.delete(timer);
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order of due time. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`OffsetClock advances by ms >= 0, got ${ms}`);
    this.offsetMs += ms;
    const now = this.nowMs();
    const pending = [...this.timers].sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const timer of pending) clearTimeout(timer.handle);
    for (const timer of pending) if (timer.at > now) this.arm(timer);
    // Only timers that existed before the jump fire here: one a callback sets with no delay goes
    // through the real timer queue, so a timer that keeps re-arming itself cannot spin forever.
    for (const timer of pending) {
      if (timer.at > now) break;
      // An earlier callback may have cancelled this one.
      if (this.timers.delete(timer)) timer.fn();
    }
  }

  private arm(timer: OffsetTimer): void {
    const waitMs = Math.min(Math.max(0, timer.at - this.nowMs()), REAL_DELAY_MS_MAX);
    timer.handle = setTimeout(() => {
      if (!this.timers.has(timer)) return;
      // Real timers may fire a millisecond early, and long waits are armed in steps.
      if (timer.at > this.nowMs()) {
        this.arm(timer);
        return;
      }
      this.timers.delete(timer);
      timer.fn();
    }, waitMs);
  }
}
