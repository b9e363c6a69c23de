import { Counter, type Registry } from '@updown/runtime';
import type { PhasesListener } from './placement-batcher';

/** A placement whose time in the order service exceeds this is counted as slow. */
export const SLOW_PLACEMENT_MS = 20;

const PHASES = ['queued', 'statements', 'commit', 'answer'] as const;
/** Part of `queued`, not a fifth phase: the time a slow placement waited for the previous batch's commit. */
const BEHIND_COMMIT = 'queued_behind_commit';
const SLOW_PHASES = [...PHASES, BEHIND_COMMIT];
const BUCKETS_SECONDS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1];

interface MetricValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

/**
 * The phases of every placement and of the slow ones, kept in typed arrays and turned into
 * Prometheus series only when scraped: a placement adds to a few numbers and allocates nothing,
 * where a prom-client `observe` with a label builds its label key every time.
 */
export class PlacementPhases {
  /** Per phase, the count of each bucket (not cumulative) and the overflow past the last. */
  private readonly buckets = PHASES.map(() => new Float64Array(BUCKETS_SECONDS.length + 1));
  private readonly sumsMs = new Float64Array(PHASES.length);
  private count = 0;
  private slowCount = 0;
  /** Per phase, then `queued_behind_commit`, summed over slow placements only. */
  private readonly slowSumsMs = new Float64Array(PHASES.length + 1);

  readonly listener: PhasesListener = (queuedMs, statementsMs, commitMs, answerMs, behindCommitMs) => {
    this.count++;
    this.add(0, queuedMs);
    this.add(1, statementsMs);
    this.add(2, commitMs);
    this.add(3, answerMs);
    if (queuedMs + statementsMs + commitMs + answerMs <= SLOW_PLACEMENT_MS) return;
    this.slowCount++;
    this.slowSumsMs[0]! += queuedMs;
    this.slowSumsMs[1]! += statementsMs;
    this.slowSumsMs[2]! += commitMs;
    this.slowSumsMs[3]! += answerMs;
    this.slowSumsMs[4]! += behindCommitMs;
  };

  private add(phase: number, ms: number): void {
    this.sumsMs[phase]! += ms;
    const seconds = ms / 1000;
    let i = 0;
    while (i < BUCKETS_SECONDS.length && seconds > BUCKETS_SECONDS[i]!) i++;
    this.buckets[phase]![i]!++;
  }

  /**
   * `updown_placement_phase_seconds{phase}` (histogram), `updown_placement_slow_total` and
   * `updown_placement_slow_phase_seconds_total{phase}`: a window's slow placements' average
   * breakdown is the delta of each phase's sum over the delta of the count.
   */
  register(registry: Registry): void {
    const histogram = {
      name: 'updown_placement_phase_seconds',
      help: 'Time of each placement in the order service by phase: queued (arrival to its batch start), statements (to the commit sent), commit (to its acknowledgement), answer (to the answer handed back)',
      type: 'histogram',
      aggregator: 'sum',
      get: () => ({ ...histogram, values: this.histogramValues() }),
      reset: () => undefined,
    };
    registry.registerMetric(histogram as unknown as Parameters<Registry['registerMetric']>[0]);
    // Counters read from the arrays at scrape time, as the process metrics do.
    const slowCount = () => this.slowCount;
    const slowSumsMs = this.slowSumsMs;
    new Counter({
      name: 'updown_placement_slow_total',
      help: `Placements whose time in the order service exceeded ${SLOW_PLACEMENT_MS} ms`,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(slowCount());
      },
    });
    new Counter({
      name: 'updown_placement_slow_phase_seconds_total',
      help: `The phases of the placements counted in updown_placement_slow_total, summed; ${BEHIND_COMMIT} is the part of queued spent waiting for the previous batch's commit`,
      labelNames: ['phase'],
      registers: [registry],
      collect() {
        this.reset();
        SLOW_PHASES.forEach((phase, i) => this.inc({ phase }, slowSumsMs[i]! / 1000));
      },
    });
  }

  private histogramValues(): MetricValue[] {
    const values: MetricValue[] = [];
    PHASES.forEach((phase, p) => {
      let cumulative = 0;
      BUCKETS_SECONDS.forEach((le, i) => {
        cumulative += this.buckets[p]![i]!;
        values.push({
          labels: { phase, le },
          value: cumulative,
          metricName: 'updown_placement_phase_seconds_bucket',
        });
      });
      values.push({
        labels: { phase, le: '+Inf' },
        value: this.count,
        metricName: 'updown_placement_phase_seconds_bucket',
      });
      values.push({
        labels: { phase },
        value: this.sumsMs[p]! / 1000,
        metricName: 'updown_placement_phase_seconds_sum',
      });
      values.push({
        labels: { phase },
        value: this.count,
        metricName: 'updown_placement_phase_seconds_count',
      });
    });
    return values;
  }
}
