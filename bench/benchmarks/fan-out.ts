import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startClientProcess, type ClientProcess } from '../lib/fanout-clients';
import { startBareFanout, startGatewayFanout, type FanoutServer, type Tick } from '../lib/fanout-servers';
import { clientsPerPair, DelayHistogram, expectedDeliveries } from '../lib/fanout-stats';
import type { BenchContext, Benchmark, BenchResult } from '../lib/types';

/**
 * Tick fan-out: 10,000 WebSocket clients over 6 pairs, every pair ticking 4 times a second (all
 * pairs on the same beat, as the feed ticks them). Each tick carries `ts` = the instant it was
 * published; clients in child processes record receive time − `ts`. Measured: delivered messages/s
 * and the p99 delay through the gateway's market plugin (bus subscription → fan-out → sockets).
 * Reference, same run and same client processes: a bare `ws` server sending the same bytes.
 */

interface Size {
  readonly clients: number;
  readonly clientProcesses: number;
  readonly warmupMs: number;
  readonly windowMs: number;
}

const SIZES: Readonly<Record<'full' | 'quick', Size>> = {
  full: { clients: 10_000, clientProcesses: 2, warmupMs: 2_000, windowMs: 20_000 },
  quick: { clients: 1_000, clientProcesses: 1, warmupMs: 1_000, windowMs: 5_000 },
};
const PAIRS = ['BTCUSDT', 'EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'ETHUSD'] as const;
const TICK_INTERVAL_MS = 250;
/** Sockets each client process opens at once. */
const CONNECT_CONCURRENCY = 50;
/** After the window closes, how long late messages may still arrive and count. */
const DRAIN_MS = 1_000;
/** Lead time between telling the clients the window and its start, so no tick precedes the message. */
const WINDOW_LEAD_MS = 200;
const CONNECT_TIMEOUT_MS = 180_000;
/** How long the server may take to register sockets its clients already see open. */
const REGISTER_WAIT_MS = 5_000;
const IPC_TIMEOUT_MS = 30_000;
/** File descriptors one process keeps for everything but sockets (PostgreSQL pool, stdio, tsx). */
const FD_RESERVE = 200;
const GOAL_P99_MS_MAX = 50;
const GOAL_RATIO_MIN = 0.8;
const WS_VERSION = (createRequire(import.meta.url)('ws/package.json') as { version: string }).version;

/** `Max open files` of this process (children inherit it); Infinity when unlimited or unreadable. */
function openFilesLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

interface Measurement {
  readonly connectSeconds: number;
  readonly expected: number;
  readonly received: number;
  readonly ratePerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly dropped: number;
  readonly serverCpuPct: number;
  readonly clientCpuPct: number;
  readonly messageBytes: number;
  /** Beats sent inside the window, and the longest gap between two of them. */
  readonly beats: number;
  readonly beatGapMsMax: number;
}

/** Opens every socket through the client processes; returns the seconds it took. */
async function connectAll(
  label: string,
  server: FanoutServer,
  processes: readonly ClientProcess[],
  size: Size,
  log: (message: string) => void,
): Promise<number> {
  const connectStarted = Date.now();
  const share = Math.ceil(size.clients / processes.length);
  const connected = await Promise.all(
    processes.map((p, i) =>
      p.request(
        {
          type: 'connect',
          url: server.url,
          pairs: PAIRS,
          count: Math.max(0, Math.min(share, size.clients - i * share)),
          offset: i * share,
          concurrency: CONNECT_CONCURRENCY,
        },
        'connected',
        CONNECT_TIMEOUT_MS,
      ),
    ),
  );
  const connectSeconds = (Date.now() - connectStarted) / 1000;
  const opened = connected.reduce((sum, c) => sum + c.opened, 0);
  const failed = connected.reduce((sum, c) => sum + c.failed, 0);
  // The gateway registers a socket after its pair look-up, a moment after the client saw it open.
  let serverClients = await server.clients();
  for (let waitedMs = 0; serverClients < opened && waitedMs < REGISTER_WAIT_MS; waitedMs += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    serverClients = await server.clients();
  }
  log(`${label}: ${opened} sockets open in ${connectSeconds.toFixed(1)} s (server counts ${serverClients})`);
  if (failed > 0 || serverClients !== size.clients) {
    const reason =
      connected.find((c) => c.firstError)?.firstError ?? 'the server did not register every socket';
    throw new Error(`${label}: ${opened} of ${size.clients} sockets opened, ${failed} failed (${reason})`);
  }
  return connectSeconds;
}

async function measure(
  label: string,
  server: FanoutServer,
  processes: readonly ClientProcess[],
  size: Size,
  log: (message: string) => void,
): Promise<Measurement> {
  try {
    const connectSeconds = await connectAll(label, server, processes, size, log);
    return await drive(label, server, processes, size, log, connectSeconds);
  } finally {
    // The server closes the sockets (its side keeps the TIME_WAIT, not the clients' ports).
    await server.close();
    await Promise.all(
      processes.map((p) => p.request({ type: 'disconnect' }, 'disconnected', IPC_TIMEOUT_MS)),
    );
  }
}

/** Ticks every pair on the beat, opens the window, and gathers what the clients received in it. */
async function drive(
  label: string,
  server: FanoutServer,
  processes: readonly ClientProcess[],
  size: Size,
  log: (message: string) => void,
  connectSeconds: number,
): Promise<Measurement> {
  // Every pair ticks on the same beat with one timestamp, as the feed does, so a server that sends
  // synchronously (the bare one) cannot stamp later pairs after it has already sent earlier ones.
  // A random walk keeps the bytes realistic.
  const prices = new Map<string, number>(PAIRS.map((pair, i) => [pair, 100 * (i + 1)]));
  const ticksInWindow = new Map<string, number>(PAIRS.map((pair) => [pair, 0]));
  let window = { fromMs: Number.POSITIVE_INFINITY, toMs: Number.NEGATIVE_INFINITY };
  let publishError: unknown;
  let messageBytes = 0;
  // Like the feed, a beat that comes late is not made up for: a saturated process sends fewer
  // ticks, which shows as a lower delivery rate and in the beats counted below.
  const beatGaps = new DelayHistogram();
  let lastBeat = Date.now();
  const beat = setInterval(() => {
    const ts = Date.now();
    if (ts >= window.fromMs && ts < window.toMs) beatGaps.record(ts - lastBeat);
    lastBeat = ts;
    for (const pair of PAIRS) {
      const price = Number((prices.get(pair)! * (1 + (Math.random() - 0.5) * 1e-4)).toFixed(5));
      prices.set(pair, price);
      const tick: Tick = { pair, price, ts };
      messageBytes = Buffer.byteLength(JSON.stringify(tick));
      if (ts >= window.fromMs && ts < window.toMs) ticksInWindow.set(pair, ticksInWindow.get(pair)! + 1);
      server.publish(tick).catch((error: unknown) => (publishError ??= error));
    }
  }, TICK_INTERVAL_MS);
  try {
    await new Promise((resolve) => setTimeout(resolve, size.warmupMs));
    const fromMs = Date.now() + WINDOW_LEAD_MS;
    const toMs = fromMs + size.windowMs;
    await Promise.all(
      processes.map((p) => p.request({ type: 'measure', fromMs, toMs }, 'measuring', IPC_TIMEOUT_MS)),
    );
    window = { fromMs, toMs };
    await new Promise((resolve) => setTimeout(resolve, fromMs - Date.now()));
    const cpuFrom = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, toMs - Date.now()));
    const cpu = process.cpuUsage(cpuFrom);
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
    clearInterval(beat);
    if (publishError) throw publishError;
    const reports = await Promise.all(
      processes.map((p) => p.request({ type: 'report' }, 'report', IPC_TIMEOUT_MS)),
    );
    const closedEarly = reports.reduce((sum, r) => sum + r.closed, 0);
    if (closedEarly > 0) log(`${label}: ${closedEarly} sockets closed during the run`);
    const histogram = new DelayHistogram();
    for (const report of reports) histogram.addSparse(report.delays);
    const received = reports.reduce((sum, r) => sum + r.received, 0);
    const ticks = [...ticksInWindow.values()];
    const expected = expectedDeliveries(ticks, clientsPerPair(size.clients, PAIRS.length));
    const windowSeconds = size.windowMs / 1000;
    const result: Measurement = {
      connectSeconds,
      expected,
      received,
      ratePerSecond: received / windowSeconds,
      p50: histogram.percentile(0.5),
      p99: histogram.percentile(0.99),
      max: histogram.max(),
      dropped: await server.dropped(),
      serverCpuPct: ((cpu.user + cpu.system) / 1000 / size.windowMs) * 100,
      clientCpuPct: (reports.reduce((sum, r) => sum + r.cpuMs, 0) / (size.windowMs + DRAIN_MS)) * 100,
      messageBytes,
      beats: beatGaps.total,
      beatGapMsMax: beatGaps.max(),
    };
    log(
      `${label}: ${Math.round(result.ratePerSecond)} msgs/s (${received} of ${expected}, ${result.beats} beats), p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms`,
    );
    return result;
  } finally {
    clearInterval(beat);
  }
}

async function run(context: BenchContext): Promise<BenchResult> {
  const wanted = context.quick ? SIZES.quick : SIZES.full;
  const fdLimit = openFilesLimit();
  // The server process holds every socket; each client process its share.
  const fitting = Math.min(
    wanted.clients,
    fdLimit - FD_RESERVE,
    (fdLimit - FD_RESERVE) * wanted.clientProcesses,
  );
  const size: Size = { ...wanted, clients: Math.max(PAIRS.length, Math.floor(fitting)) };
  if (size.clients < wanted.clients) {
    context.log(`open-files limit ${fdLimit}: running ${size.clients} clients instead of ${wanted.clients}`);
  }
  const database = await context.env.createDatabase({ max: 4 });
  const processes = Array.from({ length: size.clientProcesses }, () => startClientProcess());
  try {
    const ours = await measure(
      'gateway',
      await startGatewayFanout(database.db, size.clients + FD_RESERVE),
      processes,
      size,
      context.log,
    );
    const bare = await measure('bare ws', await startBareFanout(), processes, size, context.log);
    const ratio = ours.ratePerSecond / bare.ratePerSecond;
    const pct = (n: number) => Number(n.toFixed(1));
    return {
      name: 'fan-out',
      value: ours.p99,
      unit: 'ms p99',
      goal: `p99 <= ${GOAL_P99_MS_MAX} ms and >= ${GOAL_RATIO_MIN}x the bare delivery rate`,
      reference_name: 'bare ws server, delivered msgs/s',
      reference_value: Math.round(bare.ratePerSecond),
      ratio: Number(ratio.toFixed(3)),
      pass: ours.p99 <= GOAL_P99_MS_MAX && ratio >= GOAL_RATIO_MIN,
      setup: {
        clients: size.clients,
        pairs: PAIRS.length,
        ticks_per_s_per_pair: 1000 / TICK_INTERVAL_MS,
        tick_beat: 'all pairs on one 250 ms beat stamped once, ts = publish time of the beat',
        window_s: size.windowMs / 1000,
        warmup_s: size.warmupMs / 1000,
        message_bytes: ours.messageBytes,
        delivered_per_s: Math.round(ours.ratePerSecond),
        delivered: `${ours.received} of ${ours.expected} expected`,
        p50_ms: ours.p50,
        max_ms: ours.max,
        dropped_by_buffer_bound: ours.dropped,
        beats_sent: `${ours.beats} of ${size.windowMs / TICK_INTERVAL_MS} scheduled (longest gap ${ours.beatGapMsMax} ms)`,
        bare_beats_sent: `${bare.beats} of ${size.windowMs / TICK_INTERVAL_MS} scheduled (longest gap ${bare.beatGapMsMax} ms)`,
        server_cpu_pct: pct(ours.serverCpuPct),
        bare_delivered: `${bare.received} of ${bare.expected} expected`,
        bare_p50_ms: bare.p50,
        bare_p99_ms: bare.p99,
        bare_max_ms: bare.max,
        bare_server_cpu_pct: pct(bare.serverCpuPct),
        clients_cpu_pct: pct(ours.clientCpuPct),
        connect_s: Number(ours.connectSeconds.toFixed(1)),
        processes: `server and tick publisher in the bench process (gateway: market plugin on the in-memory bus); clients (ws ${WS_VERSION}, JSON.parse per message) in ${size.clientProcesses} child process(es) of ${Math.ceil(size.clients / size.clientProcesses)} sockets; all share the 2 cores with PostgreSQL`,
        gateway_limits: `wsClientsMax ${size.clients + FD_RESERVE}; other market options at defaults (256 KiB send-buffer bound); no per-IP limit exists`,
        open_files_limit: Number.isFinite(fdLimit) ? fdLimit : 'unlimited',
        delay_resolution: '1 ms (ts is integer ms; receive time from Date.now in the client process)',
      },
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await database.drop();
  }
}

export const fanOut: Benchmark = {
  name: 'fan-out',
  inDefaultRun: true,
  run,
};
