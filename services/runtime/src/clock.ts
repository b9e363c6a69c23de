/**
 * Time as a dependency. Production code takes a `Clock`; tests pass a `ManualClock` and move it.
 * Timers go through the clock too, so a test can fire a 30-day expiry job by advancing time.
 */
export interface Clock {
  now(): number;
  /** Calls `fn` after `ms` of this clock's time; returns a function that cancels it. */
  setTimeout(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
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

  now(): number {
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
