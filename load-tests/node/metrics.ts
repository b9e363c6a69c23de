/**
 * The few metric kinds the scenarios need, named and judged the way k6 does (`http_req_failed`,
 * `p(95)<250`), so a k6 script and its npm equivalent read the same in a report.
 */

/**
 * Samples kept per trend. A run at the largest sizes the configs allow stays well under it; past
 * it, samples are counted but not kept, and the report says so rather than running out of memory.
 */
export const TREND_SAMPLES_MAX = 2_000_000;

export class Trend {
  readonly kind = 'trend';
  private readonly samples: number[] = [];
  private sorted = true;
  droppedCount = 0;

  constructor(readonly unit: 'ms' | '' = 'ms') {}

  add(value: number): void {
    if (this.samples.length >= TREND_SAMPLES_MAX) {
      this.droppedCount++;
      return;
    }
    if (this.samples.length > 0 && value < this.samples[this.samples.length - 1]!) this.sorted = false;
    this.samples.push(value);
  }

  get count(): number {
    return this.samples.length;
  }

  /** Nearest-rank percentile; undefined without samples, so a threshold on it fails. */
  percentile(p: number): number | undefined {
    if (this.samples.length === 0) return undefined;
    this.sort();
    const rank = Math.ceil((p / 100) * this.samples.length);
    return this.samples[Math.min(this.samples.length, Math.max(1, rank)) - 1];
  }

  get min(): number | undefined {
    return this.percentile(0);
  }

  get max(): number | undefined {
    return this.percentile(100);
  }

  get avg(): number | undefined {
    if (this.samples.length === 0) return undefined;
    let sum = 0;
    for (const value of this.samples) sum += value;
    return sum / this.samples.length;
  }

  private sort(): void {
    if (this.sorted) return;
    this.samples.sort((a, b) => a - b);
    this.sorted = true;
  }
}

/** The share of true values, like k6's Rate (`http_req_failed` is a Rate of failures). */
export class Rate {
  readonly kind = 'rate';
  trues = 0;
  total = 0;

  add(value: boolean): void {
    this.total++;
    if (value) this.trues++;
  }

  get rate(): number | undefined {
    return this.total === 0 ? undefined : this.trues / this.total;
  }
}

export class Counter {
  readonly kind = 'counter';
  count = 0;

  add(amount = 1): void {
    this.count += amount;
  }
}

export type Metric = Trend | Rate | Counter;

/** One named check, counted like k6's `check()`. */
export interface CheckTally {
  passes: number;
  fails: number;
}

/** Collects a scenario's metrics and checks; `checks` is also a Rate, as in k6. */
export class Recorder {
  readonly metrics = new Map<string, Metric>();
  readonly checks = new Map<string, CheckTally>();
  readonly notes: string[] = [];

  trend(name: string, unit: 'ms' | '' = 'ms'): Trend {
    return this.metric(name, () => new Trend(unit), Trend);
  }

  rate(name: string): Rate {
    return this.metric(name, () => new Rate(), Rate);
  }

  counter(name: string): Counter {
    return this.metric(name, () => new Counter(), Counter);
  }

  check(name: string, ok: boolean): boolean {
    const tally = this.checks.get(name) ?? { passes: 0, fails: 0 };
    if (ok) tally.passes++;
    else tally.fails++;
    this.checks.set(name, tally);
    this.rate('checks').add(ok);
    return ok;
  }

  /** One HTTP exchange: status 0 is a transport error. Like k6, 4xx and 5xx count as failed. */
  http(name: string, status: number, durationMs: number): void {
    const failed = status < 200 || status >= 400;
    this.rate('http_req_failed').add(failed);
    this.counter('http_reqs').add();
    if (status === 0) return;
    this.trend('http_req_duration').add(durationMs);
    this.trend(`http_req_duration{name:${name}}`).add(durationMs);
  }

  note(line: string): void {
    this.notes.push(line);
  }

  private metric<M extends Metric>(
    name: string,
    create: () => M,
    kind: abstract new (...args: never[]) => M,
  ): M {
    const existing = this.metrics.get(name);
    if (existing === undefined) {
      const created = create();
      this.metrics.set(name, created);
      return created;
    }
    if (!(existing instanceof kind)) throw new Error(`metric ${name} is a ${existing.kind}`);
    return existing;
  }
}
