import type { ApiClient } from '@updown/api-client';
import { runHttpLoad } from '../http-load';
import { MarketClient } from '../market-socket';
import { Recorder } from '../metrics';
import {
  activePairs,
  createUsers,
  loadClient,
  newRunId,
  placeTrade,
  reply,
  sleep,
  type LoadUser,
} from '../platform-client';
import { finishScenario, type ScenarioResult, type Thresholds } from '../thresholds';

/**
 * The platform is up and its main paths work: health, readiness, metrics, pairs, sign-up and
 * sign-in, one demo trade on every pair (and an idempotent retry), the active list, live ticks on
 * the socket, then a short paced burst of GETs. About 10 s; it places 6 trades of $1.
 *
 * The latency budget applies to the burst only (sign-up hashes passwords for a good fraction of a
 * second by design) and is loose by default: the smoke proves the platform works, also in CI
 * where it shares two cores with the rest of the suite; the other scenarios measure how fast.
 * P95_MS=50 P99_MS=100 gives the k6 smoke's budget on a quiet machine.
 */

export function smokeThresholds(options: { p95Ms: number; p99Ms: number }): Thresholds {
  return {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:burst}': [`p(95)<${options.p95Ms}`, `p(99)<${options.p99Ms}`],
    tick_delay: [`p(99)<${options.p99Ms}`],
    checks: ['rate==1'],
  };
}

/** The budgets when none are given: what a platform must meet even on a machine busy with tests. */
export const SMOKE_LATENCY_DEFAULTS = { p95Ms: 1_000, p99Ms: 3_000 } as const;

const BURST_SEC = 5;
const BURST_RATE_PER_SEC = 50;
const TICKS_WANTED = 2;
const TICK_WAIT_MS_MAX = 5_000;

export interface SmokeOptions {
  readonly baseUrl: string;
  readonly p95Ms?: number;
  readonly p99Ms?: number;
  readonly log?: (line: string) => void;
}

export async function runSmoke(options: SmokeOptions): Promise<ScenarioResult> {
  const { baseUrl } = options;
  const log = options.log ?? (() => undefined);
  const recorder = new Recorder();
  const api = loadClient(recorder, baseUrl);

  log('health, readiness and metrics');
  await checkOperations(recorder, api);
  const pairs = await activePairs(api);
  recorder.check('pairs are listed and active', pairs.length > 0);

  log('sign-up, sign-in and one demo trade per pair');
  const [user] = await createUsers(api, 1, newRunId());
  await checkTrading(recorder, api, user!, pairs);

  log(`live ticks on ${pairs[0]}`);
  await checkTicks(recorder, baseUrl, pairs[0]!);

  log(`${BURST_SEC} s of GETs at ${BURST_RATE_PER_SEC}/s`);
  await runHttpLoad(recorder, {
    baseUrl,
    name: 'burst',
    connections: 5,
    ratePerSec: BURST_RATE_PER_SEC,
    requestCount: BURST_SEC * BURST_RATE_PER_SEC,
    requests: ['/healthz', '/readyz', '/metrics', '/api/market/pairs'].map((path) => ({
      method: 'GET' as const,
      path,
    })),
  });
  return finishScenario(
    'smoke',
    recorder,
    smokeThresholds({
      p95Ms: options.p95Ms ?? SMOKE_LATENCY_DEFAULTS.p95Ms,
      p99Ms: options.p99Ms ?? SMOKE_LATENCY_DEFAULTS.p99Ms,
    }),
  );
}

async function checkOperations(recorder: Recorder, api: ApiClient): Promise<void> {
  const health = await reply(api.send('get', '/healthz', undefined, { name: 'healthz' }));
  recorder.check('/healthz answers 200', health.status === 200);
  const ready = await reply(api.send('get', '/readyz', undefined, { name: 'readyz' }));
  recorder.check('/readyz answers 200', ready.status === 200);
  const metrics = await reply(api.send('get', '/metrics', undefined, { name: 'metrics' }));
  recorder.check(
    '/metrics is Prometheus text',
    metrics.status === 200 && metrics.text.includes('process_cpu_user_seconds_total'),
  );
}

async function checkTrading(
  recorder: Recorder,
  api: ApiClient,
  user: LoadUser,
  pairs: readonly string[],
): Promise<void> {
  const runKey = newRunId();
  const placedIds: string[] = [];
  for (const [index, pair] of pairs.entries()) {
    const body = {
      pair,
      direction: index % 2 === 0 ? ('UP' as const) : ('DOWN' as const),
      amount: 1,
      duration: 60 as const,
      account_type: 'demo' as const,
    };
    const placed = await placeTrade(api, user.token, body, `smoke-${runKey}-${index}`);
    const ok = placed.status === 201 && placed.body?.status === 'pending' && placed.body.pair === pair;
    recorder.check('a demo trade is accepted on every pair', ok);
    if (ok) placedIds.push(placed.body!.id);
    if (index === 0) {
      const retried = await placeTrade(api, user.token, body, `smoke-${runKey}-${index}`);
      recorder.check(
        'a repeated Idempotency-Key answers with the first trade',
        retried.status === 200 && retried.body?.id === placed.body?.id,
      );
    }
  }
  const active = await reply(
    api.send('get', '/api/trades/active', undefined, { token: user.token, name: 'active' }),
  );
  const activeIds = new Set((active.body ?? []).map((trade) => trade.id));
  recorder.check(
    'the active list holds every placed trade',
    active.status === 200 && placedIds.length === pairs.length && placedIds.every((id) => activeIds.has(id)),
  );
}

async function checkTicks(recorder: Recorder, baseUrl: string, pair: string): Promise<void> {
  const client = new MarketClient(recorder, pair);
  const open = await client.connect(baseUrl);
  recorder.check('the market socket opens', open);
  const deadline = Date.now() + TICK_WAIT_MS_MAX;
  while (open && client.ticksReceived < TICKS_WANTED && Date.now() < deadline) await sleep(50);
  recorder.check(`the market socket streams ticks of ${pair}`, client.ticksReceived >= TICKS_WANTED);
  recorder.check('every socket message is a tick of its pair', client.badMessages === 0);
  await client.close();
}
