import { Counter, Rate, Trend, type Metric, type Recorder } from './metrics';

/**
 * Thresholds in k6's own syntax, so each npm scenario states the same budget as its k6 script:
 * `{ http_req_failed: ['rate<0.01'], 'http_req_duration{name:place}': ['p(95)<250'] }`.
 */
export type Thresholds = Readonly<Record<string, readonly string[]>>;

export interface ThresholdResult {
  readonly metric: string;
  readonly expression: string;
  /** What the metric measured; undefined when it has no samples, which fails the threshold. */
  readonly actual: number | undefined;
  readonly ok: boolean;
}

export interface ScenarioResult {
  readonly scenario: string;
  readonly recorder: Recorder;
  readonly thresholds: readonly ThresholdResult[];
  /** True when every threshold held. */
  readonly passed: boolean;
}

interface ParsedThreshold {
  readonly aggregate: string;
  readonly operator: '<' | '<=' | '>' | '>=' | '==' | '!=';
  readonly limit: number;
}

const THRESHOLD =
  /^\s*(avg|min|max|med|count|rate|p\(\d+(?:\.\d+)?\))\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

export function parseThreshold(expression: string): ParsedThreshold {
  const match = THRESHOLD.exec(expression);
  if (!match) throw new Error(`not a threshold: "${expression}" (expected e.g. "p(95)<250")`);
  return {
    aggregate: match[1]!,
    operator: match[2] as ParsedThreshold['operator'],
    limit: Number(match[3]),
  };
}

/** The value an aggregate names, or undefined when the metric cannot answer it (no samples). */
export function aggregateOf(metric: Metric | undefined, aggregate: string): number | undefined {
  if (metric === undefined) return aggregate === 'count' ? 0 : undefined;
  if (metric instanceof Trend) {
    if (aggregate === 'count') return metric.count;
    if (aggregate === 'avg') return metric.avg;
    if (aggregate === 'min') return metric.min;
    if (aggregate === 'max') return metric.max;
    if (aggregate === 'med') return metric.percentile(50);
    const p = /^p\((.+)\)$/.exec(aggregate);
    if (p) return metric.percentile(Number(p[1]));
  }
  if (metric instanceof Rate && aggregate === 'rate') return metric.rate;
  if (metric instanceof Counter && aggregate === 'count') return metric.count;
  throw new Error(`${aggregate} does not apply to a ${metric.kind}`);
}

function holds(actual: number, operator: ParsedThreshold['operator'], limit: number): boolean {
  switch (operator) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '==':
      return actual === limit;
    case '!=':
      return actual !== limit;
  }
}

export function evaluateThresholds(recorder: Recorder, thresholds: Thresholds): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const [metric, expressions] of Object.entries(thresholds)) {
    for (const expression of expressions) {
      const parsed = parseThreshold(expression);
      const actual = aggregateOf(recorder.metrics.get(metric), parsed.aggregate);
      const ok = actual !== undefined && holds(actual, parsed.operator, parsed.limit);
      results.push({ metric, expression, actual, ok });
    }
  }
  return results;
}

export function finishScenario(scenario: string, recorder: Recorder, thresholds: Thresholds): ScenarioResult {
  const results = evaluateThresholds(recorder, thresholds);
  return { scenario, recorder, thresholds: results, passed: results.every((result) => result.ok) };
}
