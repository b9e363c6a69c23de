import { runHttpLoad } from '../http-load';
import { Recorder } from '../metrics';
import { activePairs, createUsers, loadClient, newRunId } from '../platform-client';
import { finishScenario, type ScenarioResult, type Thresholds } from '../thresholds';

/**
 * Trade placement at a fixed arrival rate (autocannon's `overallRate`, the counterpart of k6's
 * constant-arrival-rate), spread round-robin over many fresh accounts and every active pair: $1
 * demo trades of 60 s, each with its own Idempotency-Key, so every request is a real placement
 * (stake hold and pending trade, which carries its `trades.opened.v1` publish position, in one
 * transaction).
 */

export interface PlaceTradesOptions {
  readonly baseUrl: string;
  readonly users: number;
  readonly ratePerSec: number;
  readonly durationSec: number;
  readonly connections: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly log?: (line: string) => void;
}

export function placeTradesThresholds(options: { p95Ms: number; p99Ms: number }): Thresholds {
  return {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:place}': [`p(95)<${options.p95Ms}`, `p(99)<${options.p99Ms}`],
    checks: ['rate>0.99'],
  };
}

/** Below this share of the target rate the run measured the load generator, not the platform. */
const ACHIEVED_RATE_SHARE_MIN = 0.95;

export async function runPlaceTrades(options: PlaceTradesOptions): Promise<ScenarioResult> {
  const log = options.log ?? (() => undefined);
  const recorder = new Recorder();
  const api = loadClient(recorder, options.baseUrl);
  const pairs = await activePairs(api);
  log(`creating ${options.users} accounts`);
  const setupStarted = performance.now();
  const runId = newRunId();
  const users = await createUsers(api, options.users, runId);
  log(`accounts ready in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

  const perPair = new Map<string, number>(pairs.map((pair) => [pair, 0]));
  let sequence = 0;
  log(`placing at ${options.ratePerSec}/s for ${options.durationSec} s over ${pairs.length} pairs`);
  const summary = await runHttpLoad(recorder, {
    baseUrl: options.baseUrl,
    name: 'place',
    connections: options.connections,
    ratePerSec: options.ratePerSec,
    requestCount: options.ratePerSec * options.durationSec,
    requests: [
      {
        method: 'POST',
        path: '/api/trades/place',
        setupRequest: (request) => {
          const index = sequence++;
          const user = users[index % users.length]!;
          // Offsetting the pair by the round makes each account trade every pair over a run.
          const pair = pairs[(index + Math.floor(index / users.length)) % pairs.length]!;
          return {
            ...request,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${user.token}`,
              'idempotency-key': `load-${runId}-${index}`,
            },
            body: JSON.stringify({
              pair,
              direction: index % 2 === 0 ? 'UP' : 'DOWN',
              amount: 1,
              duration: 60,
              account_type: 'demo',
            }),
          };
        },
        onResponse: (status, body) => {
          const trade = parse(body);
          const ok = status === 201 && trade?.status === 'pending';
          recorder.check('placement is accepted as a pending trade', ok);
          if (ok && trade?.pair !== undefined) perPair.set(trade.pair, (perPair.get(trade.pair) ?? 0) + 1);
        },
      },
    ],
  });

  const achievedPerSec = summary.sent / summary.durationSec;
  recorder.check(
    'every pair received placements',
    [...perPair.values()].every((count) => count > 0),
  );
  recorder.note(`accounts: ${users.length}; pairs: ${[...perPair].map(([p, n]) => `${p} ${n}`).join(', ')}`);
  recorder.note(
    `target ${options.ratePerSec}/s, achieved ${achievedPerSec.toFixed(1)}/s (${summary.sent} in ${summary.durationSec.toFixed(1)} s)`,
  );
  if (achievedPerSec < options.ratePerSec * ACHIEVED_RATE_SHARE_MIN) {
    recorder.note('the target rate was not reached: raise CONNECTIONS, or the platform is saturated');
  }
  return finishScenario('place-trades', recorder, placeTradesThresholds(options));
}

function parse(body: string): { status?: string; pair?: string } | undefined {
  try {
    return JSON.parse(body) as { status?: string; pair?: string };
  } catch {
    return undefined;
  }
}
