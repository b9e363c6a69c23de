import type { BenchEnvironment } from './environment';

/**
 * The shapes every benchmark shares. A benchmark measures Updown and, in the same run on the same
 * machine, a reference that stands for the physical limit of the same work, so the ratio means
 * something however noisy the machine is.
 */

export type BenchName =
  'placement' | 'placement-distributed' | 'expiry-storm' | 'fan-out' | 'ledger' | 'memory' | 'soak';

/** A row of the report: a benchmark's name, or one of the extra rows a benchmark adds. */
export type ResultName = BenchName;

export interface BenchResult {
  readonly name: ResultName;
  /** The headline figure, in `unit`. */
  readonly value: number;
  readonly unit: string;
  /** The target, in words with its number: `>= 5000 placements/s, ratio >= 1.0`. */
  readonly goal: string;
  readonly reference_name: string | null;
  readonly reference_value: number | null;
  /** As the benchmark defines it (stated in `setup`); null without a reference. */
  readonly ratio: number | null;
  /**
   * A second reference's ratio, printed beside `ratio` (placement: its headline ÷ pgbench's own
   * tail headline), with the goal it is held to; `pass` stays on `ratio` and `value`.
   */
  readonly second_ratio?: {
    readonly name: string;
    readonly value: number | null;
    readonly goal_min: number;
  };
  readonly pass: boolean;
  /** Everything a reader needs to reproduce or judge the number; secondary figures too. */
  readonly setup: Readonly<Record<string, string | number | boolean | null>>;
}

export interface BenchReport {
  readonly machine: Readonly<Record<string, string | number>>;
  readonly startedAt: string;
  readonly benchmarks: readonly BenchResult[];
}

export interface BenchContext {
  readonly env: BenchEnvironment;
  /** Progress lines for the person watching; results go in the report. */
  log(message: string): void;
  /** True for `npm run bench -- --quick`: smaller sizes, for checking the harness, not for numbers. */
  readonly quick: boolean;
}

export interface Benchmark {
  readonly name: BenchName;
  /** Runs by `npm run bench` with no name; `soak` takes ten minutes and only runs when named. */
  readonly inDefaultRun: boolean;
  /** One result, or several rows (placement adds its distributed layout as a second row). */
  run(context: BenchContext): Promise<BenchResult | readonly BenchResult[]>;
}
