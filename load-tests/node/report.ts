import { Counter, Rate, Trend } from './metrics';
import type { ScenarioResult } from './thresholds';

/** Plain-text tables: the result of a run must read the same in a terminal and in a CI log. */

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function formatNumber(value: number | undefined, unit: string = ''): string {
  if (value === undefined) return '-';
  // Rates are small fractions: four decimals keep 0.0099 from printing as the 0.01 it is judged against.
  const magnitude = Math.abs(value);
  const digits = magnitude >= 100 || Number.isInteger(value) ? 0 : magnitude >= 1 ? 2 : 4;
  return `${value.toFixed(digits)}${unit}`;
}

function trendRows(result: ScenarioResult): string[][] {
  const rows: string[][] = [];
  for (const [name, metric] of result.recorder.metrics) {
    if (!(metric instanceof Trend)) continue;
    const unit = metric.unit;
    rows.push([
      name,
      String(metric.count),
      formatNumber(metric.avg, unit),
      formatNumber(metric.percentile(50), unit),
      formatNumber(metric.percentile(90), unit),
      formatNumber(metric.percentile(95), unit),
      formatNumber(metric.percentile(99), unit),
      formatNumber(metric.max, unit),
    ]);
  }
  return rows;
}

function otherRows(result: ScenarioResult): string[][] {
  const rows: string[][] = [];
  for (const [name, metric] of result.recorder.metrics) {
    if (metric instanceof Rate) {
      const percent = metric.rate === undefined ? '-' : `${(metric.rate * 100).toFixed(2)}%`;
      rows.push([name, `${percent} (${metric.trues} of ${metric.total})`]);
    } else if (metric instanceof Counter) {
      rows.push([name, String(metric.count)]);
    }
  }
  return rows;
}

export function formatResult(result: ScenarioResult): string {
  const parts: string[] = [`scenario: ${result.scenario}`, ''];
  const trends = trendRows(result);
  if (trends.length > 0) {
    parts.push(table(['trend', 'count', 'avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'], trends), '');
  }
  const others = otherRows(result);
  if (others.length > 0) parts.push(table(['rate / counter', 'value'], others), '');
  if (result.recorder.checks.size > 0) {
    const rows = [...result.recorder.checks].map(([name, tally]) => [
      tally.fails === 0 ? 'ok' : 'FAIL',
      name,
      String(tally.passes),
      String(tally.fails),
    ]);
    parts.push(table(['', 'check', 'passes', 'fails'], rows), '');
  }
  const thresholdRows = result.thresholds.map((threshold) => [
    threshold.ok ? 'ok' : 'FAIL',
    threshold.metric,
    threshold.expression,
    formatNumber(threshold.actual),
  ]);
  parts.push(table(['', 'threshold', 'budget', 'measured'], thresholdRows), '');
  for (const note of result.recorder.notes) parts.push(`note: ${note}`);
  const failed = result.thresholds.filter((threshold) => !threshold.ok).length;
  parts.push(
    result.passed
      ? `PASSED: ${result.thresholds.length} thresholds held`
      : `FAILED: ${failed} of ${result.thresholds.length} thresholds crossed`,
  );
  return parts.join('\n');
}
