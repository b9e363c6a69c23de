import type { BenchReport, BenchResult } from './types';

function formatNumber(value: number | null): string {
  if (value === null) return '—';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(value === Math.round(value) ? 0 : 2);
}

/** The second ratio in the ratio column, named and against its goal: `0.42 (÷ x: 0.81, goal >= 0.5)`. */
function secondRatio(b: BenchResult): string {
  const second = b.second_ratio;
  if (!second) return '';
  return ` (${second.name}: ${formatNumber(second.value)}, goal >= ${second.goal_min})`;
}

/** One Markdown table: each benchmark beside its reference and the ratio, then its setup. */
export function markdownTable(report: BenchReport): string {
  const lines = [
    `Run ${report.startedAt} on ${report.machine.cpus} × ${report.machine.cpuModel}, ${report.machine.memoryGiB} GiB, Node ${report.machine.node}, PostgreSQL ${report.machine.postgres}.`,
    '',
    '| benchmark | value | goal | reference | ratio | pass |',
    '|---|---|---|---|---|---|',
    ...report.benchmarks.map(
      (b: BenchResult) =>
        `| ${b.name} | ${formatNumber(b.value)} ${b.unit} | ${b.goal} | ${b.reference_name ?? '—'}: ${formatNumber(b.reference_value)} | ${formatNumber(b.ratio)}${secondRatio(b)} | ${b.pass ? 'yes' : 'no'} |`,
    ),
    '',
    ...report.benchmarks.map(
      (b) =>
        `- **${b.name}**: ${Object.entries(b.setup)
          .map(([key, value]) => `${key} ${String(value)}`)
          .join('; ')}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
