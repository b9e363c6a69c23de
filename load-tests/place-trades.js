// Trade placement at a constant arrival rate, spread round-robin over USERS fresh accounts and every
// active pair: $1 demo trades of 60 s, each with its own Idempotency-Key.
//   k6 run load-tests/place-trades.js
//   RATE=100 DURATION_SEC=120 USERS=200 k6 run load-tests/place-trades.js
// More than ~150 accounts within a minute needs the platform started with a higher AUTH_IP_RATE_MAX.
import { check } from 'k6';
import exec from 'k6/execution';
import { activePairs, assertLoopback, envInt, newRunId, placeTrade, signUp } from './lib/platform.js';

assertLoopback();

const USERS = envInt('USERS', 50, 10000);
const RATE = envInt('RATE', 50, 5000);
const DURATION_SEC = envInt('DURATION_SEC', 60, 3600);
const P95_MS = envInt('P95_MS', 250, 60000);
const P99_MS = envInt('P99_MS', 500, 60000);
const MAX_VUS = envInt('MAX_VUS', 200, 5000);

export const options = {
  // Two password hashes per account, about 20 accounts a second on a small machine.
  setupTimeout: `${60 + Math.ceil(USERS / 5)}s`,
  scenarios: {
    place: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: `${DURATION_SEC}s`,
      preAllocatedVUs: Math.min(MAX_VUS, Math.max(10, Math.ceil(RATE / 4))),
      maxVUs: MAX_VUS,
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:place}': [`p(95)<${P95_MS}`, `p(99)<${P99_MS}`],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  const runId = newRunId();
  return { runId, pairs: activePairs(), tokens: signUp(USERS, runId) };
}

export default function (data) {
  const index = exec.scenario.iterationInTest;
  const token = data.tokens[index % data.tokens.length];
  // Offsetting the pair by the round makes each account trade every pair over a run.
  const pair = data.pairs[(index + Math.floor(index / data.tokens.length)) % data.pairs.length];
  const res = placeTrade(
    token,
    { pair, direction: index % 2 === 0 ? 'UP' : 'DOWN', amount: 1, duration: 60, account_type: 'demo' },
    `load-${data.runId}-${index}`,
  );
  check(res, {
    'placement is accepted as a pending trade': (r) => r.status === 201 && r.json('status') === 'pending',
  });
}
