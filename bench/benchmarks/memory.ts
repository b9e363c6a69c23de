import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchDatabase } from '../lib/environment';
import {
  activePairs,
  heapUsedMb,
  openSubscribers,
  registerTraders,
  startPlacementLoad,
  type PlacementStats,
} from '../lib/memory-load';
import {
  medianRssMb,
  sampleRss,
  startIdleNode,
  startPlatformProcess,
  type PlatformProcess,
} from '../lib/memory-process';
import { slopeMbPerMin, soakVerdict, type RssSample } from '../lib/memory-stats';
import type { Benchmark, BenchContext, BenchResult } from '../lib/types';

/**
 * memory: the resident set of the whole platform as `npm start` runs it, idle after start-up and
 * under a short placement load, beside a bare Node process that only idles (the runtime's floor).
 * soak: ten minutes under a light steady load, sampled every 10 s, judged on growth between the
 * first and the last two minutes (see `soakVerdict`).
 */

const IDLE_RSS_MB_MAX = 300;
const TRADERS = 5;

const round1 = (value: number) => Math.round(value * 10) / 10;

interface MemorySizes {
  /** Wait after the platform is up before idle sampling: start-up garbage collected, timers running. */
  readonly settleMs: number;
  readonly idleSampleMs: number;
  readonly sampleEveryMs: number;
  readonly loadRatePerSec: number;
  readonly loadMs: number;
  readonly bareSettleMs: number;
}

const MEMORY_FULL: MemorySizes = {
  settleMs: 10_000,
  idleSampleMs: 5_000,
  sampleEveryMs: 250,
  loadRatePerSec: 50,
  loadMs: 20_000,
  bareSettleMs: 2_000,
};

const MEMORY_QUICK: MemorySizes = {
  settleMs: 3_000,
  idleSampleMs: 1_500,
  sampleEveryMs: 250,
  loadRatePerSec: 50,
  loadMs: 4_000,
  bareSettleMs: 1_000,
};

function loadLine(stats: PlacementStats): string {
  const kinds = Object.entries(stats.errorKinds)
    .map(([kind, n]) => `${kind} ×${n}`)
    .join(', ');
  return `${stats.ok}/${stats.sent} placed, p50 ${stats.p50Ms.toFixed(1)} ms, p99 ${stats.p99Ms.toFixed(1)} ms${kinds ? `, errors: ${kinds}` : ''}`;
}

/** Runs `work` with a fresh database and the platform on it, and always stops both. */
async function withPlatform<T>(
  context: BenchContext,
  work: (platform: PlatformProcess, database: BenchDatabase, startedMs: number) => Promise<T>,
): Promise<T> {
  // The platform opens its own pool; this handle only names and drops the database.
  const database = await context.env.createDatabase({ max: 1 });
  let platform: PlatformProcess | undefined;
  try {
    const started = Date.now();
    platform = await startPlatformProcess(database.url);
    return await work(platform, database, Date.now() - started);
  } finally {
    await platform?.stop();
    await database.drop();
  }
}

async function bareNodeRssMb(sizes: MemorySizes): Promise<number> {
  const bare = startIdleNode();
  try {
    await sleep(sizes.bareSettleMs);
    return medianRssMb(await sampleRss(bare, sizes.idleSampleMs, sizes.sampleEveryMs));
  } finally {
    await bare.stop();
  }
}

async function runMemory(context: BenchContext): Promise<BenchResult> {
  const sizes = context.quick ? MEMORY_QUICK : MEMORY_FULL;
  return withPlatform(context, async (platform, _database, startupMs) => {
    context.log(`platform up in ${(startupMs / 1000).toFixed(1)} s (pid ${platform.pid}); letting it settle`);
    // The bare process settles beside the platform: both are idle, so neither disturbs the other.
    const [bareMb] = await Promise.all([bareNodeRssMb(sizes), sleep(sizes.settleMs)]);
    const idleSamples = await sampleRss(platform, sizes.idleSampleMs, sizes.sampleEveryMs);
    const idleMb = medianRssMb(idleSamples);
    const childrenMb = await platform.descendantsRssMb();
    const idleHeapMb = await heapUsedMb(platform.baseUrl);
    context.log(
      `idle ${idleMb.toFixed(1)} MB, bare node ${bareMb.toFixed(1)} MB; registering ${TRADERS} traders`,
    );

    const tokens = await registerTraders(platform.baseUrl, TRADERS);
    const pairs = await activePairs(platform.baseUrl);
    const load = startPlacementLoad({
      baseUrl: platform.baseUrl,
      tokens,
      pairs,
      ratePerSec: sizes.loadRatePerSec,
    });
    let loadSamples: RssSample[];
    let stats: PlacementStats;
    try {
      loadSamples = await sampleRss(platform, sizes.loadMs, sizes.sampleEveryMs * 2);
    } finally {
      stats = await load.stop();
    }
    const afterLoadMb = (await platform.rssMb()) ?? Number.NaN;
    const loadMb = medianRssMb(loadSamples);
    const loadPeakMb = Math.max(...loadSamples.map((s) => s.rssMb));
    const afterLoadHeapMb = await heapUsedMb(platform.baseUrl);
    context.log(`under load ${loadMb.toFixed(1)} MB (peak ${loadPeakMb.toFixed(1)}): ${loadLine(stats)}`);

    return {
      name: 'memory',
      value: round1(idleMb),
      unit: 'MB RSS idle',
      goal: `<= ${IDLE_RSS_MB_MAX} MB idle, no growth over the soak (npm run bench -- soak)`,
      reference_name: 'bare node -e process that only idles (MB RSS)',
      reference_value: round1(bareMb),
      ratio: Number((idleMb / bareMb).toFixed(2)),
      pass: idleMb <= IDLE_RSS_MB_MAX,
      setup: {
        process:
          'npm start as a child process: node --import tsx services/platform/src/main.ts, every service in one process on the in-memory bus, default log level, console not built (CONSOLE_DIR missing), its own fresh database',
        rss: 'VmRSS of the platform process from /proc/<pid>/status (not of processes it started, listed apart); the median of the samples',
        startup_s: round1(startupMs / 1000),
        idle: `median of ${idleSamples.length} samples over ${sizes.idleSampleMs / 1000} s, ${sizes.settleMs / 1000} s after start-up`,
        // tsx's esbuild service, started only when a source file misses tsx's compile cache.
        child_processes_mb: round1(childrenMb),
        heap_used_idle_mb: idleHeapMb === null ? null : round1(idleHeapMb),
        rss_under_load_mb: round1(loadMb),
        rss_under_load_peak_mb: round1(loadPeakMb),
        rss_after_load_mb: round1(afterLoadMb),
        heap_used_after_load_mb: afterLoadHeapMb === null ? null : round1(afterLoadHeapMb),
        load: `${sizes.loadRatePerSec} authenticated POST /api/trades/place per second for ${sizes.loadMs / 1000} s (open model), ${TRADERS} traders registered through the API, $1 demo trades of 60 s`,
        placements: loadLine(stats),
        load_generator: 'the benchmark process, sharing the cores with the platform and PostgreSQL',
      },
    };
  });
}

interface SoakSizes {
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly sampleEveryMs: number;
  /** Each end of the run whose medians are compared. */
  readonly windowMs: number;
  readonly placementsPerSec: number;
  readonly sockets: number;
}

const SOAK_FULL: SoakSizes = {
  // Past the first expiries (60 s trades) and the first major collection, which shrinks the heap
  // sharply: a start window that still held the pre-collection peak would hide growth after it.
  warmupMs: 120_000,
  durationMs: 600_000,
  sampleEveryMs: 10_000,
  windowMs: 120_000,
  placementsPerSec: 10,
  sockets: 6,
};

const SOAK_QUICK: SoakSizes = {
  warmupMs: 5_000,
  durationMs: 60_000,
  sampleEveryMs: 2_000,
  windowMs: 12_000,
  placementsPerSec: 10,
  sockets: 6,
};

const GROWTH_FRACTION_MAX = 0.05;
/**
 * 0.5 MB/min is 30 MB an hour. With the ~1.5 MB jitter RSS shows at a steady state, the slope of the
 * 30 samples of a 5-minute half is known to about ±0.2 MB/min, so a trend that steep is not noise.
 */
const TAIL_SLOPE_MB_PER_MIN_MAX = 0.5;

async function runSoak(context: BenchContext): Promise<BenchResult> {
  const sizes = context.quick ? SOAK_QUICK : SOAK_FULL;
  return withPlatform(context, async (platform) => {
    const tokens = await registerTraders(platform.baseUrl, TRADERS);
    const pairs = await activePairs(platform.baseUrl);
    const sockets = await openSubscribers(platform.baseUrl, pairs, sizes.sockets);
    const load = startPlacementLoad({
      baseUrl: platform.baseUrl,
      tokens,
      pairs,
      ratePerSec: sizes.placementsPerSec,
    });
    let samples: RssSample[];
    let stats: PlacementStats;
    const heapSamples: RssSample[] = [];
    const sampleHeap = async (atMs: number) => {
      const heapMb = await heapUsedMb(platform.baseUrl);
      if (heapMb !== null) heapSamples.push({ atMs, rssMb: heapMb });
    };
    try {
      context.log(`warming up for ${sizes.warmupMs / 1000} s under load`);
      await sleep(sizes.warmupMs);
      context.log(`sampling RSS every ${sizes.sampleEveryMs / 1000} s for ${sizes.durationMs / 1000} s`);
      samples = await sampleRss(platform, sizes.durationMs, sizes.sampleEveryMs, sampleHeap);
    } finally {
      stats = await load.stop();
      await sockets.close();
    }
    const rule = {
      windowMs: sizes.windowMs,
      growthFractionMax: GROWTH_FRACTION_MAX,
      slopeMbPerMinMax: TAIL_SLOPE_MB_PER_MIN_MAX,
    };
    const verdict = soakVerdict(samples, rule);
    // The same windows over the V8 heap, for reading only: the verdict is on RSS.
    const heap = heapSamples.length > 0 ? soakVerdict(heapSamples, { ...rule, growthFractionMax: 0 }) : null;
    context.log(
      `start ${verdict.startMb.toFixed(1)} MB, end ${verdict.endMb.toFixed(1)} MB, tail slope ${verdict.tailSlopeMbPerMin.toFixed(2)} MB/min`,
    );
    return {
      name: 'soak',
      value: round1(verdict.growthMb),
      unit: 'MB RSS growth',
      goal: `growth <= ${GROWTH_FRACTION_MAX * 100}% of the start, or no upward trend (slope <= ${TAIL_SLOPE_MB_PER_MIN_MAX} MB/min) over the second half`,
      reference_name: `RSS at the start (median of the first ${sizes.windowMs / 60_000} min, MB)`,
      reference_value: round1(verdict.startMb),
      ratio: Number((verdict.endMb / verdict.startMb).toFixed(3)),
      pass: verdict.pass,
      setup: {
        process: 'npm start as a child process on its own fresh database, as for memory',
        duration: `${sizes.durationMs / 60_000} min of samples every ${sizes.sampleEveryMs / 1000} s, after ${sizes.warmupMs / 1000} s of warm-up under the same load`,
        rule: `value = median of the last ${sizes.windowMs / 60_000} min − median of the first ${sizes.windowMs / 60_000} min; pass when that is <= ${GROWTH_FRACTION_MAX * 100}% of the start, or when the least-squares slope over the second half of the samples is <= ${TAIL_SLOPE_MB_PER_MIN_MAX} MB/min (growth that stopped, not a leak)`,
        end_mb: round1(verdict.endMb),
        growth_pct: round1(verdict.growthFraction * 100),
        tail_slope_mb_per_min: Number(verdict.tailSlopeMbPerMin.toFixed(3)),
        whole_slope_mb_per_min: Number(slopeMbPerMin(samples).toFixed(3)),
        peak_mb: round1(Math.max(...samples.map((s) => s.rssMb))),
        samples: samples.map((s) => s.rssMb.toFixed(0)).join(' '),
        heap_used_start_mb: heap ? round1(heap.startMb) : null,
        heap_used_end_mb: heap ? round1(heap.endMb) : null,
        heap_used_tail_slope_mb_per_min: heap ? Number(heap.tailSlopeMbPerMin.toFixed(3)) : null,
        heap_used_samples: heapSamples.map((s) => s.rssMb.toFixed(0)).join(' '),
        load: `${sizes.placementsPerSec} placements/s ($1 demo trades of 60 s, so trades open and settle throughout) by ${TRADERS} traders, and ${sizes.sockets} price sockets over ${pairs.length} pairs (${sockets.messages()} messages received)`,
        placements: loadLine(stats),
      },
    };
  });
}

export const memory: Benchmark = {
  name: 'memory',
  inDefaultRun: true,
  run: runMemory,
};

export const soak: Benchmark = {
  name: 'soak',
  inDefaultRun: false,
  run: runSoak,
};
