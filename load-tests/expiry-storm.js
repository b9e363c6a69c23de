// Many trades sharing one expiry: TRADES demo trades of 60 s placed in one burst (CONCURRENCY at a
// time) starting on a whole second, so they come due together; then every account's history is
// polled until none is pending. time_to_all_settled runs from the last trade's expiry (accepted
// time + 60 s, to the millisecond) to the poll that found everything settled.
//   k6 run load-tests/expiry-storm.js
//   TRADES=3000 USERS=60 k6 run load-tests/expiry-storm.js      (at most 100 trades per account)
import http from 'k6/http';
import { check, fail, sleep } from 'k6';
import { Trend } from 'k6/metrics';
import {
  activePairs,
  assertLoopback,
  envInt,
  historyRequest,
  newRunId,
  placeRequest,
  signUp,
} from './lib/platform.js';

assertLoopback();

const STORM_DURATION_SEC = 60;
// The history route returns at most 100 trades, so no account may hold more in one storm.
const TRADES_PER_USER_MAX = 100;
const POLL_INTERVAL_SEC = 0.25;
const POLL_LEAD_MS = 500;

const TRADES = envInt('TRADES', 600, 50000);
const USERS = envInt('USERS', 30, 10000);
const CONCURRENCY = envInt('CONCURRENCY', 32, 1000);
const P95_MS = envInt('P95_MS', 1000, 60000);
const P99_MS = envInt('P99_MS', 2000, 60000);
const SETTLED_MS_MAX = envInt('SETTLED_MS_MAX', 5000, 600000);
const SETTLE_TIMEOUT_SEC = envInt('SETTLE_TIMEOUT_SEC', 120, 3600);
if (Math.ceil(TRADES / USERS) > TRADES_PER_USER_MAX) {
  throw new Error(`TRADES/USERS must be at most ${TRADES_PER_USER_MAX}: raise USERS`);
}

const timeToAllSettled = new Trend('time_to_all_settled', true);
const fromFirstExpiry = new Trend('time_from_first_expiry_to_all_settled', true);
const expirySpread = new Trend('expiry_spread', true);

export const options = {
  batch: CONCURRENCY,
  batchPerHost: CONCURRENCY,
  setupTimeout: `${60 + Math.ceil(USERS / 5)}s`,
  scenarios: {
    storm: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      maxDuration: `${STORM_DURATION_SEC + SETTLE_TIMEOUT_SEC + 300}s`,
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:place}': [`p(95)<${P95_MS}`, `p(99)<${P99_MS}`],
    time_to_all_settled: [`max<${SETTLED_MS_MAX}`],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  const runId = newRunId();
  return { runId, pairs: activePairs(), tokens: signUp(USERS, runId) };
}

function placeAll(data) {
  const requests = [];
  for (let i = 0; i < TRADES; i++) {
    const body = {
      pair: data.pairs[i % data.pairs.length],
      // Alternating per round of pairs, so every pair gets both directions.
      direction: Math.floor(i / data.pairs.length) % 2 === 0 ? 'UP' : 'DOWN',
      amount: 1,
      duration: STORM_DURATION_SEC,
      account_type: 'demo',
    };
    requests.push(placeRequest(data.tokens[i % USERS], body, `storm-${data.runId}-${i}`));
  }
  // Starting right after a whole second gives the burst the best chance of one expiry second.
  sleep((1005 - (Date.now() % 1000)) / 1000);
  const pending = {}; // account index -> {trade id: true}
  let firstExpiryMs = Infinity;
  let lastExpiryMs = 0;
  http.batch(requests).forEach((res, i) => {
    if (!check(res, { 'placement is accepted': (r) => r.status === 201 })) return;
    const expiryMs = Date.parse(res.json('created_at')) + STORM_DURATION_SEC * 1000;
    firstExpiryMs = Math.min(firstExpiryMs, expiryMs);
    lastExpiryMs = Math.max(lastExpiryMs, expiryMs);
    const user = i % USERS;
    pending[user] = pending[user] || {};
    pending[user][res.json('id')] = true;
  });
  return { pending, firstExpiryMs, lastExpiryMs };
}

// Polls the accounts that still have pending trades; returns how many trades are still pending.
function pollOnce(data, pending) {
  const users = Object.keys(pending);
  const responses = http.batch(
    users.map((user) => historyRequest(data.tokens[Number(user)], TRADES_PER_USER_MAX)),
  );
  let left = 0;
  responses.forEach((res, i) => {
    const ids = pending[users[i]];
    if (res.status === 200) {
      res.json().forEach((trade) => {
        if (trade.status !== 'pending') delete ids[trade.id];
      });
    }
    const count = Object.keys(ids).length;
    if (count === 0) delete pending[users[i]];
    left += count;
  });
  return left;
}

export default function (data) {
  const storm = placeAll(data);
  if (storm.lastExpiryMs === 0) fail('no trade was accepted');
  expirySpread.add(storm.lastExpiryMs - storm.firstExpiryMs);
  const waitMs = storm.lastExpiryMs - POLL_LEAD_MS - Date.now();
  if (waitMs > 0) sleep(waitMs / 1000);
  const deadlineMs = storm.lastExpiryMs + SETTLE_TIMEOUT_SEC * 1000;
  let left = -1;
  while (left !== 0 && Date.now() < deadlineMs) {
    left = pollOnce(data, storm.pending);
    if (left === 0) {
      timeToAllSettled.add(Date.now() - storm.lastExpiryMs);
      fromFirstExpiry.add(Date.now() - storm.firstExpiryMs);
    } else {
      sleep(POLL_INTERVAL_SEC);
    }
  }
  check(left, { 'every trade settled': (n) => n === 0 });
}
