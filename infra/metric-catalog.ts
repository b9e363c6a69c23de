import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parser } from '@prometheus-io/lezer-promql';
import { createMetricsRegistry } from '@updown/runtime';

/**
 * What the alert rules and the dashboard may name: every metric the services register, read from
 * their source, so a renamed metric or label breaks the infra tests instead of a panel going blank
 * in production. prom-client's default process metrics and Prometheus's own `up` are added.
 */

export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary';

export interface CatalogMetric {
  readonly name: string;
  readonly type: MetricType;
  /** Label names the code declares; undefined where they are not known (prom-client's defaults). */
  readonly labels: ReadonlySet<string> | undefined;
  readonly file: string;
}

/** Labels every scraped series carries: Prometheus's target labels and the registry's default label. */
const TARGET_LABELS = ['job', 'instance', 'service'];
/** Bounds the walk over the sources. */
const SOURCE_FILES_MAX = 5_000;

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  const stack = [dir];
  while (stack.length > 0 && files.length < SOURCE_FILES_MAX) {
    const current = stack.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'testing', 'dist'].includes(entry.name)) stack.push(full);
      } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$|\.contract\.ts$/.test(entry.name)) {
        files.push(full);
      }
    }
  }
  return files;
}

/** The object literal that starts at `open` (a `{`), by counting braces. */
function objectLiteral(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** A string constant or a string-array constant declared in the same file. */
function constant(text: string, name: string): string | undefined {
  const match = new RegExp(`const ${name}\\s*=\\s*(\\[[^\\]]*\\]|'[^']*')`).exec(text);
  return match?.[1];
}

function strings(literal: string): string[] {
  return [...literal.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}

/** Every `new Counter|Gauge|Histogram|Summary({ name, labelNames })` in the services' sources. */
export async function registeredMetrics(root = REPO_ROOT): Promise<Map<string, CatalogMetric>> {
  const catalog = new Map<string, CatalogMetric>();
  for (const file of sourceFiles(path.join(root, 'services'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/new (Counter|Gauge|Histogram|Summary)\(\s*\{/g)) {
      const body = objectLiteral(text, match.index + match[0].length - 1);
      const nameRef = /\bname:\s*('[^']*'|[A-Za-z_]\w*)/.exec(body)?.[1];
      const name = nameRef && strings(nameRef.startsWith("'") ? nameRef : (constant(text, nameRef) ?? ''))[0];
      if (!name) continue;
      const labelsRef = /\blabelNames:\s*(\[[^\]]*\]|[A-Za-z_]\w*)/.exec(body)?.[1];
      const labels = labelsRef
        ? strings(labelsRef.startsWith('[') ? labelsRef : (constant(text, labelsRef) ?? ''))
        : [];
      const type = match[1]!.toLowerCase() as MetricType;
      catalog.set(name, { name, type, labels: new Set(labels), file: path.relative(root, file) });
    }
  }
  // The process metrics every registry of ours carries (CPU, memory, event loop, GC).
  for (const { name, type } of await createMetricsRegistry().getMetricsAsJSON()) {
    catalog.set(name, {
      name,
      type: String(type) as MetricType,
      labels: undefined,
      file: 'prom-client defaults',
    });
  }
  catalog.set('up', { name: 'up', type: 'gauge', labels: new Set(), file: 'Prometheus' });
  return catalog;
}

/** The metric a series name belongs to: histograms and summaries expose `_bucket`, `_sum`, `_count`. */
export function resolveSeries(
  catalog: ReadonlyMap<string, CatalogMetric>,
  series: string,
): { metric: CatalogMetric; extraLabels: string[] } | undefined {
  const direct = catalog.get(series);
  if (direct) return { metric: direct, extraLabels: direct.type === 'summary' ? ['quantile'] : [] };
  const suffix = /_(bucket|sum|count)$/.exec(series);
  if (!suffix) return undefined;
  const base = catalog.get(series.slice(0, -suffix[0].length));
  if (!base || (base.type !== 'histogram' && base.type !== 'summary')) return undefined;
  if (suffix[1] === 'bucket' && base.type !== 'histogram') return undefined;
  return { metric: base, extraLabels: suffix[1] === 'bucket' ? ['le'] : [] };
}

interface SyntaxNode {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly type: { readonly isError: boolean };
  readonly firstChild: SyntaxNode | null;
  readonly nextSibling: SyntaxNode | null;
}

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

function descendants(node: SyntaxNode, name: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.name === name) out.push(current);
    stack.push(...children(current));
  }
  return out;
}

/**
 * Parses one PromQL expression with Prometheus's own grammar and checks it against the catalog:
 * it must parse, name at least one metric, name only registered metrics (each selector by name),
 * match only on labels those metrics carry, and group only by labels its metrics carry.
 * Returns the metric names it uses and every problem found.
 */
export function checkExpression(
  catalog: ReadonlyMap<string, CatalogMetric>,
  expr: string,
): { metrics: string[]; problems: string[] } {
  const problems: string[] = [];
  const text = (node: SyntaxNode) => expr.slice(node.from, node.to);
  const root = parser.parse(expr).topNode as unknown as SyntaxNode;
  const errors = descendants(root, '⚠');
  if (errors.length > 0)
    problems.push(`does not parse near "${expr.slice(errors[0]!.from, errors[0]!.from + 20)}"`);
  const metrics: string[] = [];
  const labelsOf = (selector: SyntaxNode): Set<string> | undefined => {
    const identifier = children(selector).find((c) => c.name === 'Identifier');
    if (!identifier) {
      problems.push(`selector ${text(selector)} names no metric`);
      return undefined;
    }
    const series = text(identifier);
    const resolved = resolveSeries(catalog, series);
    if (!resolved) {
      problems.push(`${series} is not a metric the code registers`);
      return undefined;
    }
    metrics.push(resolved.metric.name);
    if (!resolved.metric.labels) return undefined;
    return new Set([...resolved.metric.labels, ...resolved.extraLabels, ...TARGET_LABELS]);
  };
  for (const selector of descendants(root, 'VectorSelector')) {
    const labels = labelsOf(selector);
    if (!labels) continue;
    for (const label of descendants(selector, 'LabelName').map(text)) {
      if (!labels.has(label)) problems.push(`${text(selector)}: label "${label}" is not one the metric has`);
    }
  }
  for (const aggregate of descendants(root, 'AggregateExpr')) {
    // This aggregation's own `by`/`without`, not one of an aggregation nested inside it.
    const modifier = children(aggregate).find((c) => c.name === 'AggregateModifier');
    const grouping = modifier && children(modifier).find((c) => c.name === 'GroupingLabels');
    if (!grouping) continue;
    const available = new Set<string>();
    let unknown = false;
    for (const selector of descendants(aggregate, 'VectorSelector')) {
      const identifier = children(selector).find((c) => c.name === 'Identifier');
      const resolved = identifier && resolveSeries(catalog, text(identifier));
      if (!resolved?.metric.labels) unknown = true;
      else
        for (const l of [...resolved.metric.labels, ...resolved.extraLabels, ...TARGET_LABELS])
          available.add(l);
    }
    if (unknown) continue;
    for (const label of children(grouping)
      .filter((c) => c.name === 'LabelName')
      .map(text)) {
      if (!available.has(label)) problems.push(`grouping by "${label}", which none of its metrics has`);
    }
  }
  if (metrics.length === 0 && problems.length === 0) problems.push('names no metric');
  return { metrics: [...new Set(metrics)], problems };
}
