import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ApiClient, fetchTransport, newUser, signUp } from '@updown/api-client';
import { percentile } from './stats';

/**
 * The light load the memory benchmarks put on the platform: a few traders registered through the
 * API, authenticated placements at a fixed arrival rate, and (for the soak) a few price sockets.
 * It only has to exercise every path a request takes at a steady pace; the placement benchmark
 * measures how fast it can go.
 */

const REQUEST_TIMEOUT_MS = 10_000;
/** Registration hashes a password; give a busy machine time. */
const SIGN_UP_TIMEOUT_MS = 60_000;
/** Requests outstanding at once; past it an arrival is counted as an error, not sent. */
const IN_FLIGHT_MAX = 200;
/** How often the generator wakes to send what has fallen due. */
const TICK_MS = 10;
/** A $1 demo trade of 60 s: trades open and settle all through a run. */
const STAKE_DOLLARS = 1;
const DURATION_SEC = 60;
const CLOSE_WAIT_MS = 2_000;

const client = (baseUrl: string) => new ApiClient(fetchTransport(baseUrl, { timeoutMs: REQUEST_TIMEOUT_MS }));

/** Registers and signs in `count` traders through the API (each gets the demo grant); their tokens. */
export async function registerTraders(baseUrl: string, count: number): Promise<string[]> {
  const api = client(baseUrl);
  const tokens: string[] = [];
  for (let index = 0; index < count; index++) {
    const trader = await signUp(api, newUser('Bench Trader'), { timeoutMs: SIGN_UP_TIMEOUT_MS });
    tokens.push(trader.accessToken);
  }
  return tokens;
}

export async function activePairs(baseUrl: string): Promise<string[]> {
  const pairs = await client(baseUrl).get('/api/market/pairs');
  const active = pairs.filter((pair) => pair.active).map((pair) => pair.symbol);
  if (active.length === 0) throw new Error('no active pair to trade');
  return active;
}

/**
 * The platform's V8 heap in use, in MB, from its own `/metrics` (prom-client's default
 * `nodejs_heap_size_used_bytes`); null when it cannot be read. Beside RSS it tells JavaScript
 * objects that are kept from memory held outside the heap (buffers, the allocator's free lists).
 */
export async function heapUsedMb(baseUrl: string): Promise<number | null> {
  try {
    const metrics = await client(baseUrl).send('get', '/metrics');
    const match = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(metrics.text);
    return match ? Number(match[1]) / 2 ** 20 : null;
  } catch {
    return null;
  }
}

export interface PlacementStats {
  readonly sent: number;
  readonly ok: number;
  readonly errors: number;
  /** Error labels (status code, `timeout`, `backlog`) and their counts. */
  readonly errorKinds: Readonly<Record<string, number>>;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface PlacementLoad {
  /** Stops sending, waits for the answers outstanding, and returns what happened. */
  stop(): Promise<PlacementStats>;
}

/**
 * Places demo trades at `ratePerSec` (open model: arrivals fall due on the clock whatever the
 * answers do), rotating over the traders, pairs and both directions.
 */
export function startPlacementLoad(options: {
  baseUrl: string;
  tokens: readonly string[];
  pairs: readonly string[];
  ratePerSec: number;
}): PlacementLoad {
  const { tokens, pairs, ratePerSec } = options;
  const api = client(options.baseUrl);
  const latenciesMs: number[] = [];
  const errorKinds = new Map<string, number>();
  const countError = (kind: string) => errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  const outstanding = new Set<Promise<void>>();
  const run = randomBytes(4).toString('hex');
  const start = performance.now();
  let sent = 0;

  const place = async (index: number) => {
    const began = performance.now();
    try {
      const reply = await api.send(
        'post',
        '/api/trades/place',
        {
          pair: pairs[index % pairs.length]!,
          direction: index % 2 === 0 ? 'UP' : 'DOWN',
          amount: STAKE_DOLLARS,
          duration: DURATION_SEC,
          account_type: 'demo',
        },
        { token: tokens[index % tokens.length], idempotencyKey: `bench-memory-${run}-${index}` },
      );
      if (reply.status === 200 || reply.status === 201) latenciesMs.push(performance.now() - began);
      else countError(String(reply.status));
    } catch (error) {
      countError(error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network');
    }
  };

  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) * ratePerSec) / 1000) + 1;
    for (; sent < due; sent++) {
      if (outstanding.size >= IN_FLIGHT_MAX) {
        countError('backlog');
        continue;
      }
      const request = place(sent).finally(() => outstanding.delete(request));
      outstanding.add(request);
    }
  }, TICK_MS);

  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(outstanding);
      const sorted = [...latenciesMs].sort((a, b) => a - b);
      const errors = [...errorKinds.values()].reduce((sum, n) => sum + n, 0);
      return {
        sent,
        ok: sorted.length,
        errors,
        errorKinds: Object.fromEntries(errorKinds),
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
      };
    },
  };
}

export interface Subscribers {
  /** Messages received by all sockets so far. */
  messages(): number;
  close(): Promise<void>;
}

/** Opens `count` price sockets spread over the pairs; resolves when all are open. */
export async function openSubscribers(
  baseUrl: string,
  pairs: readonly string[],
  count: number,
): Promise<Subscribers> {
  let messages = 0;
  const wsBase = baseUrl.replace(/^http/, 'ws');
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      (_, index) =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(`${wsBase}/api/market/ws?pair=${pairs[index % pairs.length]}`);
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
          socket.on('message', () => {
            messages++;
          });
        }),
    ),
  );
  return {
    messages: () => messages,
    async close() {
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.readyState === WebSocket.CLOSED) return resolve();
              // A server that never answers the close handshake must not hold the benchmark up.
              const timer = setTimeout(() => socket.terminate(), CLOSE_WAIT_MS);
              socket.once('close', () => {
                clearTimeout(timer);
                resolve();
              });
              socket.close();
            }),
        ),
      );
    },
  };
}
