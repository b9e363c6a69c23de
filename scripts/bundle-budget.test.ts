import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../e2e/harness/console-build';

/**
 * The console's bundle budget, in bytes and never in time: what a page downloads before it can
 * paint is the one cost of the route split that can quietly grow back. Read from the build the
 * browser tests use (one build per source state, shared with them), through Vite's manifest and
 * the chunk → modules record the console's vite.config.ts writes beside it.
 */

/** The landing page's JavaScript, gzipped: a phone on a slow link paints it in about two seconds. */
const LANDING_JS_GZIP_BYTES_MAX = 100_000;
/** Libraries that only the trading page's chart (and its indicators) or the admin panel need. */
const CHART_AND_INDICATOR_LIBRARIES =
  /\/node_modules\/(lightweight-charts|fancy-canvas|trading-signals|@ixjb94\/indicators)\//;
const INDICATORS_AND_ADMIN = /^src\/features\/(indicators|admin)\//;
/** A build can take a minute on a busy machine. */
const BUILD_TIMEOUT_MS = 180_000;

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
}

let dir: string;
let manifest: Record<string, ManifestChunk>;
let modulesByFile: Record<string, string[]>;

beforeAll(async () => {
  dir = await consoleBuild();
  manifest = JSON.parse(readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8'));
  modulesByFile = JSON.parse(readFileSync(path.join(dir, '.vite', 'chunk-modules.json'), 'utf8'));
}, BUILD_TIMEOUT_MS);

/** The chunks a page's code loads before it runs: the chunk and everything it imports statically. */
function staticGraph(key: string): ManifestChunk[] {
  const seen = new Map<string, ManifestChunk>();
  const stack = [key];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (seen.has(current)) continue;
    const chunk = manifest[current];
    if (!chunk) throw new Error(`the manifest has no chunk ${current}`);
    seen.set(current, chunk);
    stack.push(...(chunk.imports ?? []));
  }
  return [...seen.values()];
}

function modulesOf(chunks: readonly ManifestChunk[]): string[] {
  return chunks.flatMap((chunk) => modulesByFile[chunk.file] ?? []);
}

function gzipBytes(chunks: readonly ManifestChunk[]): Record<string, number> {
  return Object.fromEntries(
    chunks
      .filter((chunk) => chunk.file.endsWith('.js'))
      .map((chunk) => [chunk.file, gzipSync(readFileSync(path.join(dir, chunk.file)), { level: 9 }).length]),
  );
}

/** The manifest key of the chunk whose entry module is `src`. */
function keyOf(src: string): string {
  const key = Object.keys(manifest).find((candidate) => manifest[candidate]!.src === src);
  if (!key) throw new Error(`no chunk starts at ${src}`);
  return key;
}

describe('console bundle budget', () => {
  it('keeps the landing page under 100 kB of gzipped JavaScript', () => {
    const sizes = gzipBytes(staticGraph('index.html'));
    const total = Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0);
    expect(total, `landing chunks (gzip bytes): ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(
      LANDING_JS_GZIP_BYTES_MAX,
    );
  });

  it('keeps the chart, the indicator maths and the admin panel out of the landing page', () => {
    const modules = modulesOf(staticGraph('index.html'));
    expect(modules.length).toBeGreaterThan(0);
    expect(modules.filter((id) => CHART_AND_INDICATOR_LIBRARIES.test(`/${id}`))).toEqual([]);
    expect(modules.filter((id) => INDICATORS_AND_ADMIN.test(id))).toEqual([]);
  });

  it('loads the chart apart from the trading page, and the indicator maths apart from the chart', () => {
    const tradePage = modulesOf(staticGraph(keyOf('src/app/pages/trade-page.tsx')));
    expect(tradePage.filter((id) => CHART_AND_INDICATOR_LIBRARIES.test(`/${id}`))).toEqual([]);
    const chart = modulesOf(staticGraph(keyOf('src/app/pages/trade-chart.tsx')));
    expect(chart.some((id) => id.includes('/node_modules/lightweight-charts/'))).toBe(true);
    expect(
      chart.filter((id) => /\/node_modules\/(trading-signals|@ixjb94\/indicators)\//.test(`/${id}`)),
    ).toEqual([]);
  });
});
