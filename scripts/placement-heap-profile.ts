/**
 * Where the single process's heap allocation goes per placement, and at idle.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     npx tsx scripts/placement-heap-profile.ts [placements=5000] [ratePerSec=150] [outDir=/tmp/heap-profile]
 *
 * Starts the platform as the placement benchmark does (child process, scratch database, demo
 * traders), with `scripts/heap-sampler.mjs` preloaded, warms it up, then samples two windows of the
 * same length with V8's sampling heap profiler (4 kB interval, collected objects kept): idle, then
 * `placements` at a fixed rate. `updown_heap_allocated_bytes_total` is read around both as a check.
 * The report ranks allocation by package and by function, per placement net of idle and at idle
 * per second; the raw `.heapprofile` files stay in `outDir` for DevTools.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { openBenchEnvironment } from '../bench/lib/environment';
import { placementSender } from '../bench/benchmarks/placement';
import { runOpenModelStep } from '../bench/lib/open-model-load';
import { heapAllocatedOf } from '../bench/lib/placement-alloc';
import { createTraders, startPlatformChild } from '../bench/lib/placement-platform';
import { rankProfiles, type HeapProfile } from './heap-profile-rank';

const TRADERS = 50;
const CONNECTIONS = 32;
const WARM_UP_PLACEMENTS = 1500;
const SAMPLER = path.resolve(import.meta.dirname, 'heap-sampler.mjs');

const placements = Number(process.argv[2] ?? 5000);
const ratePerSec = Number(process.argv[3] ?? 150);
const outDir = process.argv[4] ?? '/tmp/heap-profile';
const log = (message: string) => process.stderr.write(`${new Date().toISOString()} ${message}\n`);

async function waitForFile(file: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (
      await readFile(file).then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(50);
  }
  throw new Error(`${file} did not appear`);
}

async function main(): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const env = await openBenchEnvironment(log);
  const database = await env.createDatabase({ max: 4 });
  const platform = await startPlatformChild({
    databaseUrl: database.url,
    nodeArgs: ['--import', SAMPLER],
    extraEnv: { HEAP_SAMPLER_DIR: outDir },
  });
  const pool = new Pool(platform.baseUrl, { connections: CONNECTIONS, pipelining: 1 });
  const processes = [{ name: 'platform', pid: platform.pid, metricsUrl: `${platform.baseUrl}/metrics` }];
  let window = 0;
  const sampled = async <T>(work: () => Promise<T>) => {
    window += 1;
    const before = (await heapAllocatedOf(processes)).platform ?? NaN;
    process.kill(platform.pid, 'SIGUSR2');
    await waitForFile(path.join(outDir, `${window}.started`));
    const startedAt = performance.now();
    const result = await work();
    const seconds = (performance.now() - startedAt) / 1000;
    process.kill(platform.pid, 'SIGUSR2');
    await waitForFile(path.join(outDir, `${window}.heapprofile`));
    const counted = ((await heapAllocatedOf(processes)).platform ?? NaN) - before;
    const profile = JSON.parse(
      await readFile(path.join(outDir, `${window}.heapprofile`), 'utf8'),
    ) as HeapProfile;
    return { result, seconds, counted, profile };
  };
  try {
    const tokens = await createTraders(database.db, platform.baseUrl, TRADERS);
    const pairs = (
      await database.db.selectFrom('market_pairs').select('symbol').where('active', '=', true).execute()
    ).map((r) => r.symbol);
    const send = placementSender(pool, tokens, pairs, log);
    const step = (count: number) =>
      runOpenModelStep({
        send,
        ratePerSec,
        durationMs: (count / ratePerSec) * 1000,
        inFlightMax: CONNECTIONS * 50,
        drainMsMax: 10_000,
      });
    const warm = await step(WARM_UP_PLACEMENTS);
    log(`warm-up: ${warm.ok} ok, ${warm.errors} errors ${JSON.stringify(warm.errorKinds)}`);
    if (warm.ok === 0)
      throw new Error(`no placement succeeded; the platform said:\n${platform.output().slice(-3000)}`);
    const durationMs = (placements / ratePerSec) * 1000;
    const idle = await sampled(() => sleep(durationMs));
    const load = await sampled(() => step(placements));
    log(`load: ${load.result.ok} ok, ${load.result.errors} errors, p99 ${load.result.p99Ms.toFixed(1)} ms`);
    process.stdout.write(
      rankProfiles({
        idle: { profile: idle.profile, seconds: idle.seconds, counted: idle.counted },
        load: { profile: load.profile, seconds: load.seconds, counted: load.counted },
        placements: load.result.ok,
        root: path.resolve(import.meta.dirname, '..'),
      }),
    );
  } finally {
    await pool.close();
    await platform.stop();
    await database.drop();
    await env.close();
  }
}

await main();
