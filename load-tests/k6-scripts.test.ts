import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarioConfig } from './node/config';
import { expiryStormThresholds } from './node/scenarios/expiry-storm';
import { placeTradesThresholds } from './node/scenarios/place-trades';
import { wsSubscribersThresholds } from './node/scenarios/ws-subscribers';
import { parseThreshold } from './node/thresholds';

/**
 * The k6 scripts cannot run here without a k6 binary, so this checks what can be checked without
 * one: each script parses as a JavaScript module, and evaluated with k6's modules stubbed it
 * exports `options` with the agreed thresholds and a default function. Where `k6` is installed,
 * `k6 inspect` (k6's own parse and options check) runs on each as well.
 */

const loadTestsDir = import.meta.dirname;
const SCRIPTS = ['expiry-storm.js', 'place-trades.js', 'smoke.js', 'ws-subscribers.js'];
const K6_IMPORT = /import\s+([^'";]+?)\s+from\s+['"](k6(?:\/[\w/-]+)?)['"]/g;

interface K6Options {
  thresholds: Record<string, string[]>;
  scenarios?: Record<string, { executor: string }>;
}
interface K6Script {
  options: K6Options;
  default: unknown;
  setup?: unknown;
}

let stubDir: string;
let loads = 0;

/** Writes one stub module per k6 module the scripts import, exporting every name they import. */
async function writeStubs(dir: string): Promise<Map<string, string>> {
  const names = new Map<string, Set<string>>();
  for (const file of [...SCRIPTS, 'lib/platform.js']) {
    const source = await readFile(path.join(loadTestsDir, file), 'utf8');
    for (const [, clause, specifier] of source.matchAll(K6_IMPORT)) {
      const set = names.get(specifier!) ?? new Set<string>();
      for (const named of /\{([^}]*)\}/.exec(clause!)?.[1]?.split(',') ?? []) {
        const name = named.trim().split(/\s+as\s+/)[0];
        if (name) set.add(name);
      }
      names.set(specifier!, set);
    }
  }
  const files = new Map<string, string>();
  for (const [specifier, exported] of names) {
    const file = path.join(dir, 'k6-stubs', `${specifier.replaceAll('/', '__')}.mjs`);
    const lines = [
      'const noop = () => undefined;',
      'export default new Proxy(noop, { get: () => noop });',
      ...[...exported].map((name) =>
        /^[A-Z]/.test(name)
          ? `export class ${name} { constructor(name) { this.name = name; } add() {} }`
          : `export const ${name} = noop;`,
      ),
    ];
    await writeFile(file, `${lines.join('\n')}\n`);
    files.set(specifier, file);
  }
  return files;
}

/** The scripts with k6's imports pointing at the stubs, by path relative to load-tests/. */
const rewritten = new Map<string, string>();

/**
 * Evaluates a script afresh with this `__ENV`: each load gets its own copy of the scripts and of
 * lib/, because a module is evaluated once per URL and the shared module reads `__ENV` too.
 */
async function loadScript(file: string, env: Record<string, string> = {}): Promise<K6Script> {
  const dir = path.join(stubDir, `load-${loads++}`);
  await mkdir(path.join(dir, 'lib'), { recursive: true });
  for (const [relative, source] of rewritten) await writeFile(path.join(dir, relative), source);
  const globals = globalThis as Record<string, unknown>;
  globals.__ENV = env;
  globals.__VU = 0;
  globals.__ITER = 0;
  return (await import(pathToFileURL(path.join(dir, file)).href)) as K6Script;
}

beforeAll(async () => {
  stubDir = await mkdtemp(path.join(os.tmpdir(), 'updown-k6-'));
  await writeFile(path.join(stubDir, 'package.json'), '{"type":"module"}\n');
  await mkdir(path.join(stubDir, 'k6-stubs'));
  const stubs = await writeStubs(stubDir);
  for (const file of [...SCRIPTS, 'lib/platform.js']) {
    const source = await readFile(path.join(loadTestsDir, file), 'utf8');
    rewritten.set(
      file,
      source.replace(K6_IMPORT, (whole, _clause: string, specifier: string) =>
        whole.replace(specifier, pathToFileURL(stubs.get(specifier)!).href),
      ),
    );
  }
});

afterAll(async () => {
  await rm(stubDir, { recursive: true, force: true });
});

describe('the k6 scripts', () => {
  it('are exactly the documented four, next to their shared module', async () => {
    const files = (await readdir(loadTestsDir)).filter((file) => file.endsWith('.js')).sort();
    expect(files).toEqual(SCRIPTS);
  });

  it.each(SCRIPTS)('%s parses as a JavaScript module', (file) => {
    const result = spawnSync(process.execPath, ['--check', path.join(loadTestsDir, file)], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.each(SCRIPTS)(
    '%s exports options with failure-rate and p95/p99 thresholds and a default function',
    async (file) => {
      const script = await loadScript(file);
      expect(typeof script.default).toBe('function');
      const thresholds = script.options.thresholds;
      expect(thresholds.http_req_failed).toEqual(['rate<0.01']);
      const expressions = Object.values(thresholds).flat();
      for (const expression of expressions) expect(() => parseThreshold(expression)).not.toThrow();
      expect(expressions.some((expression) => expression.startsWith('p(95)<'))).toBe(true);
      expect(expressions.some((expression) => expression.startsWith('p(99)<'))).toBe(true);
    },
  );

  it('place-trades runs at a constant arrival rate, with the same budget as npm run load:place-trades', async () => {
    const script = await loadScript('place-trades.js');
    expect(script.options.scenarios?.place?.executor).toBe('constant-arrival-rate');
    expect(typeof script.setup).toBe('function');
    const defaults = loadScenarioConfig('place-trades', {});
    expect(script.options.thresholds).toEqual(
      placeTradesThresholds({ p95Ms: defaults.P95_MS, p99Ms: defaults.P99_MS }),
    );
  });

  it('ws-subscribers and expiry-storm state the same budgets as their npm equivalents', async () => {
    const ws = await loadScript('ws-subscribers.js');
    const wsDefaults = loadScenarioConfig('ws-subscribers', {});
    expect(ws.options.thresholds).toEqual(
      wsSubscribersThresholds({ tickDelayP99Ms: wsDefaults.TICK_DELAY_P99_MS }),
    );
    expect(ws.options.thresholds.tick_delay).toEqual(['p(99)<500']);
    const storm = await loadScript('expiry-storm.js');
    const stormDefaults = loadScenarioConfig('expiry-storm', {});
    expect(storm.options.thresholds).toEqual(
      expiryStormThresholds({
        p95Ms: stormDefaults.P95_MS,
        p99Ms: stormDefaults.P99_MS,
        settledMsMax: stormDefaults.SETTLED_MS_MAX,
      }),
    );
  });

  it('take sizes and budgets from __ENV', async () => {
    const script = await loadScript('place-trades.js', { RATE: '7', P95_MS: '123', P99_MS: '456' });
    expect(script.options.thresholds['http_req_duration{name:place}']).toEqual(['p(95)<123', 'p(99)<456']);
    await expect(loadScript('place-trades.js', { RATE: 'lots' })).rejects.toThrow('RATE must be an integer');
  });

  it('refuse a target off this machine unless LOAD_ALLOW_REMOTE=1', async () => {
    await expect(loadScript('smoke.js', { BASE_URL: 'http://10.1.2.3:8080' })).rejects.toThrow(
      'not a loopback address',
    );
    await expect(loadScript('smoke.js', { BASE_URL: 'http://[::1]:8080' })).resolves.toBeDefined();
    await expect(
      loadScript('smoke.js', { BASE_URL: 'http://10.1.2.3:8080', LOAD_ALLOW_REMOTE: '1' }),
    ).resolves.toBeDefined();
  });

  const k6 = spawnSync('k6', ['version'], { encoding: 'utf8' });
  const hasK6 = k6.status === 0;
  it.skipIf(!hasK6).each(SCRIPTS)(
    `k6 inspect accepts %s${hasK6 ? '' : ' (skipped: no k6 binary)'}`,
    (file) => {
      const result = spawnSync('k6', ['inspect', path.join(loadTestsDir, file)], { encoding: 'utf8' });
      expect(result.status).toBe(0);
    },
  );
});
