import pMap from 'p-map';
import type { ApiClient } from '@updown/api-client';
import type { Schemas } from '@updown/schemas/openapi';
import { Recorder } from '../metrics';
import {
  activePairs,
  createUsers,
  loadClient,
  newRunId,
  placeTrade,
  SetupError,
  sleep,
  tradeHistory,
  type LoadUser,
} from '../platform-client';
import { finishScenario, type ScenarioResult, type Thresholds } from '../thresholds';

/**
 * Many trades sharing one expiry: a burst of 60 s demo trades placed as fast as the platform takes
 * them, starting on a whole second, so they come due together; then every account's history is
 * polled until none is pending. time_to_all_settled runs from the last trade's expiry (its
 * accepted time + 60 s, to the millisecond) to the poll that found everything settled.
 */

export const STORM_DURATION_SEC = 60;
/** The history route returns at most this many trades, so no account may hold more in one storm. */
export const TRADES_PER_USER_MAX = 100;
const POLL_INTERVAL_MS = 250;
/** Polling starts this long before the last expiry, so the first settlement is not missed. */
const POLL_LEAD_MS = 500;

export interface ExpiryStormOptions {
  readonly baseUrl: string;
  readonly trades: number;
  readonly users: number;
  readonly concurrency: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly settledMsMax: number;
  readonly settleTimeoutSec: number;
  readonly log?: (line: string) => void;
}

export function expiryStormThresholds(options: {
  p95Ms: number;
  p99Ms: number;
  settledMsMax: number;
}): Thresholds {
  return {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:place}': [`p(95)<${options.p95Ms}`, `p(99)<${options.p99Ms}`],
    time_to_all_settled: [`max<${options.settledMsMax}`],
    checks: ['rate>0.99'],
  };
}

interface Placed {
  readonly user: LoadUser;
  readonly trade: Schemas['Trade'];
}

export async function runExpiryStorm(options: ExpiryStormOptions): Promise<ScenarioResult> {
  const log = options.log ?? (() => undefined);
  const perUser = Math.ceil(options.trades / options.users);
  if (perUser > TRADES_PER_USER_MAX) {
    throw new SetupError(
      `${options.trades} trades over ${options.users} accounts is ${perUser} each; at most ${TRADES_PER_USER_MAX}: raise USERS`,
    );
  }
  const recorder = new Recorder();
  const api = loadClient(recorder, options.baseUrl);
  const pairs = await activePairs(api);
  log(`creating ${options.users} accounts`);
  const runId = newRunId();
  const users = await createUsers(api, options.users, runId);

  // Starting right after a whole second gives the burst the best chance of one expiry second.
  await sleep(1000 - (Date.now() % 1000) + 5);
  log(`placing ${options.trades} trades of ${STORM_DURATION_SEC} s, ${options.concurrency} at a time`);
  const burstStarted = performance.now();
  const indexes = Array.from({ length: options.trades }, (_, index) => index);
  const results = await pMap(
    indexes,
    async (index): Promise<Placed | undefined> => {
      const user = users[index % users.length]!;
      const pair = pairs[index % pairs.length]!;
      const reply = await placeTrade(
        api,
        user.token,
        {
          pair,
          // Alternating per round of pairs, so every pair gets both directions.
          direction: Math.floor(index / pairs.length) % 2 === 0 ? 'UP' : 'DOWN',
          amount: 1,
          duration: STORM_DURATION_SEC,
          account_type: 'demo',
        },
        `storm-${runId}-${index}`,
      );
      const ok = recorder.check('placement is accepted', reply.status === 201 && reply.body !== undefined);
      return ok ? { user, trade: reply.body! } : undefined;
    },
    { concurrency: options.concurrency },
  );
  const placed = results.filter((result): result is Placed => result !== undefined);
  const burstMs = performance.now() - burstStarted;
  if (placed.length === 0) throw new SetupError('no trade was accepted');

  const expiriesMs = placed.map(({ trade }) => Date.parse(trade.created_at) + trade.duration * 1000);
  const firstExpiryMs = Math.min(...expiriesMs);
  const lastExpiryMs = Math.max(...expiriesMs);
  const expirySeconds = new Set(placed.map(({ trade }) => trade.expiry_ts));
  recorder.trend('expiry_spread').add(lastExpiryMs - firstExpiryMs);
  recorder.note(
    `${placed.length} trades placed in ${(burstMs / 1000).toFixed(2)} s ` +
      `(${((placed.length * 1000) / burstMs).toFixed(0)}/s), due within ${expirySeconds.size} distinct expiry second(s)`,
  );

  const waitMs = lastExpiryMs - POLL_LEAD_MS - Date.now();
  log(`waiting ${(waitMs / 1000).toFixed(0)} s for the expiry`);
  if (waitMs > 0) await sleep(waitMs);
  const settled = await pollUntilSettled(api, options, placed, lastExpiryMs);
  if (settled.allAtMs !== undefined) {
    recorder.trend('time_to_all_settled').add(settled.allAtMs - lastExpiryMs);
    recorder.trend('time_from_first_expiry_to_all_settled').add(settled.allAtMs - firstExpiryMs);
  } else {
    recorder.note(`${settled.pending} trades were still pending ${options.settleTimeoutSec} s after expiry`);
  }
  recorder.check('every trade settled', settled.allAtMs !== undefined);
  recorder.note(`outcomes: ${[...settled.outcomes].map(([status, n]) => `${status} ${n}`).join(', ')}`);
  return finishScenario('expiry-storm', recorder, expiryStormThresholds(options));
}

async function pollUntilSettled(
  api: ApiClient,
  options: ExpiryStormOptions,
  placed: readonly Placed[],
  lastExpiryMs: number,
): Promise<{ allAtMs: number | undefined; pending: number; outcomes: Map<string, number> }> {
  const pendingByUser = new Map<LoadUser, Set<string>>();
  for (const { user, trade } of placed) {
    const ids = pendingByUser.get(user) ?? new Set<string>();
    ids.add(trade.id);
    pendingByUser.set(user, ids);
  }
  const outcomes = new Map<string, number>();
  const deadlineMs = lastExpiryMs + options.settleTimeoutSec * 1000;
  let pending = placed.length;
  while (Date.now() < deadlineMs) {
    const roundStarted = Date.now();
    await pMap(
      [...pendingByUser],
      async ([user, ids]) => {
        const reply = await tradeHistory(api, user.token, TRADES_PER_USER_MAX);
        for (const trade of Array.isArray(reply.body) ? reply.body : []) {
          if (trade.status === 'pending' || !ids.delete(trade.id)) continue;
          outcomes.set(trade.status, (outcomes.get(trade.status) ?? 0) + 1);
        }
        if (ids.size === 0) pendingByUser.delete(user);
      },
      { concurrency: options.concurrency },
    );
    pending = [...pendingByUser.values()].reduce((sum, ids) => sum + ids.size, 0);
    // The end of the round that saw the last settlement: late by at most one poll interval and
    // one round, never early.
    if (pending === 0) return { allAtMs: Date.now(), pending, outcomes };
    await sleep(Math.max(0, POLL_INTERVAL_MS - (Date.now() - roundStarted)));
  }
  return { allAtMs: undefined, pending, outcomes };
}
