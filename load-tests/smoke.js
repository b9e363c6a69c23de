// k6 smoke test: the platform is up, ready and exporting metrics.
//   k6 run load-tests/smoke.js                       (against http://localhost:8080)
//   BASE_URL=http://127.0.0.1:9000 k6 run load-tests/smoke.js
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:8080';

export const options = {
  vus: 5,
  duration: '20s',
  thresholds: {
    http_req_failed: ['rate<0.01'],
    http_req_duration: ['p(95)<50', 'p(99)<100'],
  },
};

export default function () {
  check(http.get(`${BASE_URL}/healthz`), { 'healthz 200': (r) => r.status === 200 });
  check(http.get(`${BASE_URL}/readyz`), { 'readyz 200': (r) => r.status === 200 });
  check(http.get(`${BASE_URL}/metrics`), {
    'metrics is Prometheus text': (r) =>
      r.status === 200 && r.body.includes('process_cpu_user_seconds_total'),
  });
}
