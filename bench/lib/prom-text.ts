/**
 * Just enough of the Prometheus text exposition format to read a few series of a scrape: one
 * sample per line, `name{label="value",…} number`, comments skipped.
 */

export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function parseValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

export function parsePromText(text: string): PromSample[] {
  const samples: PromSample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(LABEL)) labels[label[1]!] = unescapeLabel(label[2]!);
    samples.push({ name: match[1]!, labels, value: parseValue(match[3]!) });
  }
  return samples;
}

/** The sum of the series named `name` whose labels include `labels`; 0 when none. */
export function promSum(
  samples: readonly PromSample[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  let sum = 0;
  for (const sample of samples) {
    if (sample.name !== name) continue;
    if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) sum += sample.value;
  }
  return sum;
}

/** The values of a labelled series by one label's value: `kind` → seconds. */
export function promByLabel(
  samples: readonly PromSample[],
  name: string,
  label: string,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const sample of samples) {
    const key = sample.labels[label];
    if (sample.name === name && key !== undefined) out[key] = (out[key] ?? 0) + sample.value;
  }
  return out;
}
