import type { Histogram, Registry } from 'prom-client';

/**
 * One series of a histogram kept in plain numbers: observing adds to a typed array and allocates
 * nothing, where prom-client's `observe` with labels builds the label key every time. The series
 * reach prom-client only when scraped (`serveScraped`).
 */
export class HistogramCounts {
  /** Per bucket bound, the observations up to it and above the previous one, then the overflow. */
  readonly buckets: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly bounds: readonly number[],
    readonly labels: Readonly<Record<string, string>>,
  ) {
    this.buckets = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.buckets[i]!++;
    this.sum += value;
    this.count++;
  }

  reset(): void {
    this.buckets.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

interface MetricValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName: string;
}

/**
 * Registers `histogram` (made with `registers: []`, so that its name, help, labels and buckets are
 * declared where the metric catalog of `infra/` finds them) with its values read from `series`
 * at every scrape instead of from its own observations; `reset` clears the series.
 */
export function serveScraped(
  registry: Registry,
  histogram: Histogram<string>,
  series: () => Iterable<HistogramCounts>,
): void {
  const { name, help } = histogram as unknown as { name: string; help: string };
  const bucket = `${name}_bucket`;
  const values = (): MetricValue[] => {
    const out: MetricValue[] = [];
    for (const counts of series()) {
      if (counts.count === 0) continue;
      let cumulative = 0;
      counts.bounds.forEach((le, i) => {
        cumulative += counts.buckets[i]!;
        out.push({ labels: { le, ...counts.labels }, value: cumulative, metricName: bucket });
      });
      out.push({ labels: { le: '+Inf', ...counts.labels }, value: counts.count, metricName: bucket });
      out.push({ labels: { ...counts.labels }, value: counts.sum, metricName: `${name}_sum` });
      out.push({ labels: { ...counts.labels }, value: counts.count, metricName: `${name}_count` });
    }
    return out;
  };
  const scraped = histogram as unknown as {
    get: () => Promise<unknown>;
    getForPromString: () => Promise<unknown>;
    reset: () => void;
  };
  // The registry reads a histogram's text through `getForPromString`, its JSON through `get`.
  scraped.get = async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: values() });
  scraped.getForPromString = scraped.get;
  scraped.reset = () => {
    for (const counts of series()) counts.reset();
  };
  registry.registerMetric(histogram);
}
