// k6 smoke test: the platform is up, ready, exporting metrics and taking trades. setup() signs up
// one account and places one $1 demo trade on every active pair (and retries one with the same
// Idempotency-Key); then 5 virtual users read health, readiness, metrics, pairs and the account's
// active trades for 20 s.
//   k6 run load-tests/smoke.js                       (against http://127.0.0.1:8080)
//   BASE_URL=http://127.0.0.1:9000 k6 run load-tests/smoke.js
import { check } from 'k6';
import { activePairs, assertLoopback, envInt, get, newRunId, placeTrade, signUp } from './lib/platform.js';

assertLoopback();

// A k6 binary is a light load generator: on a quiet machine the reads take a few milliseconds.
const P95_MS = envInt('P95_MS', 50, 60000);
const P99_MS = envInt('P99_MS', 100, 60000);

export const options = {
  vus: 5,
  duration: '20s',
  thresholds: {
    http_req_failed: ['rate<0.01'],
    // Only the steady reads: sign-up hashes passwords for a good fraction of a second by design.
    'http_req_duration{load:steady}': [`p(95)<${P95_MS}`, `p(99)<${P99_MS}`],
    checks: ['rate==1'],
  },
};

export function setup() {
  const runId = newRunId();
  const pairs = activePairs();
  const token = signUp(1, runId)[0];
  pairs.forEach((pair, index) => {
    const body = { pair, direction: 'UP', amount: 1, duration: 60, account_type: 'demo' };
    const idempotencyKey = `smoke-${runId}-${index}`;
    const placed = placeTrade(token, body, idempotencyKey);
    check(placed, {
      'a demo trade is accepted on every pair': (r) => r.status === 201 && r.json('pair') === pair,
    });
    if (index === 0) {
      const retried = placeTrade(token, body, idempotencyKey);
      check(retried, {
        'a repeated Idempotency-Key answers with the first trade': (r) =>
          r.status === 200 && r.json('id') === placed.json('id'),
      });
    }
  });
  return { token, pairCount: pairs.length };
}

// The steady reads, tagged apart from the setup's calls for the latency threshold.
const STEADY = { load: 'steady' };

export default function (data) {
  check(get('/healthz', 'healthz', null, STEADY), { '/healthz answers 200': (r) => r.status === 200 });
  check(get('/readyz', 'readyz', null, STEADY), { '/readyz answers 200': (r) => r.status === 200 });
  check(get('/metrics', 'metrics', null, STEADY), {
    '/metrics is Prometheus text': (r) =>
      r.status === 200 && r.body.includes('process_cpu_user_seconds_total'),
  });
  check(get('/api/market/pairs', 'pairs', null, STEADY), { 'pairs are listed': (r) => r.status === 200 });
  // The smoke's trades are 60 s long: while they run, the active list holds them all.
  check(get('/api/trades/active', 'active', data.token, STEADY), {
    '/api/trades/active answers 200': (r) => r.status === 200,
  });
}
