// Shared by the k6 scripts: the target, sizes from __ENV, and every API call they make.
// Names of variables, checks and thresholds match the npm scenarios in load-tests/node/.
import http from 'k6/http';
import { check, fail } from 'k6';

export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
export const WS_BASE_URL = BASE_URL.replace(/^http/, 'ws');
export const PASSWORD = 'load-test-password';

// The gateway hashes 4 passwords at a time and refuses past 256 queued: sign up in small batches.
const SIGN_UP_BATCH = 8;
const JSON_HEADERS = { 'Content-Type': 'application/json' };

// Load only goes to this machine (127.0.0.0/8, localhost, ::1) unless LOAD_ALLOW_REMOTE=1.
export function assertLoopback() {
  if (__ENV.LOAD_ALLOW_REMOTE === '1') return;
  const match = /^https?:\/\/(\[[^\]]+\]|[^/:?#]+)/i.exec(BASE_URL);
  const host = match ? match[1].toLowerCase() : '';
  if (host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return;
  throw new Error(
    `BASE_URL ${BASE_URL} is not a loopback address; load is only sent to this machine unless LOAD_ALLOW_REMOTE=1`,
  );
}

// An integer from __ENV within [1, max]; a bad value stops the run before it starts.
export function envInt(name, fallback, max) {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be an integer from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

// Keeps this run's accounts and idempotency keys apart from every other run's.
export function newRunId() {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 0xffffff).toString(16)}`;
}

function jsonParams(name, token, extraHeaders) {
  const headers = Object.assign({}, JSON_HEADERS, extraHeaders || {});
  if (token) headers.Authorization = `Bearer ${token}`;
  return { headers, tags: { name } };
}

// A GET tagged `name` (and `tags`), with the account's token when given.
export function get(path, name, token, tags) {
  const params = { tags: Object.assign({ name }, tags || {}) };
  if (token) params.headers = { Authorization: `Bearer ${token}` };
  return http.get(`${BASE_URL}${path}`, params);
}

// A placement as an http.batch() request, tagged `place`.
export function placeRequest(token, body, idempotencyKey) {
  return {
    method: 'POST',
    url: `${BASE_URL}/api/trades/place`,
    body: JSON.stringify(body),
    params: jsonParams('place', token, { 'Idempotency-Key': idempotencyKey }),
  };
}

export function placeTrade(token, body, idempotencyKey) {
  const request = placeRequest(token, body, idempotencyKey);
  return http.post(request.url, request.body, request.params);
}

// The account's newest `limit` trades as an http.batch() request, tagged `history`.
export function historyRequest(token, limit) {
  return {
    method: 'GET',
    url: `${BASE_URL}/api/trades/history?limit=${limit}`,
    params: jsonParams('history', token),
  };
}

export function activePairs() {
  const res = http.get(`${BASE_URL}/api/market/pairs`, { tags: { name: 'pairs' } });
  if (res.status !== 200) fail(`GET /api/market/pairs answered ${res.status}`);
  const pairs = res
    .json()
    .filter((pair) => pair.active)
    .map((pair) => pair.symbol);
  if (pairs.length === 0) fail('no active pair to trade');
  return pairs;
}

function signUpFailure(step, res) {
  const hint =
    res.status === 429
      ? ' (the per-IP sign-in ceiling: start the platform with a higher AUTH_IP_RATE_MAX, see load-tests/README.md)'
      : '';
  return `${step} answered ${res.status}: ${String(res.body).slice(0, 200)}${hint}`;
}

// Registers and signs in `count` fresh accounts (each starts with the $10,000 demo grant) and
// returns their access tokens (15 minutes by default: ACCESS_TOKEN_TTL_SEC for longer runs).
export function signUp(count, runId) {
  const tokens = [];
  for (let first = 0; first < count; first += SIGN_UP_BATCH) {
    const emails = [];
    for (let i = first; i < Math.min(count, first + SIGN_UP_BATCH); i++) {
      emails.push(`load-${runId}-${i}@example.com`);
    }
    const registered = http.batch(
      emails.map((email, i) => ({
        method: 'POST',
        url: `${BASE_URL}/api/auth/register`,
        body: JSON.stringify({ name: `Load Tester ${first + i}`, email, password: PASSWORD }),
        params: jsonParams('register'),
      })),
    );
    registered.forEach((res) => {
      if (res.status !== 201) fail(signUpFailure('POST /api/auth/register', res));
    });
    const logins = http.batch(
      emails.map((email) => ({
        method: 'POST',
        url: `${BASE_URL}/api/auth/login`,
        body: JSON.stringify({ email, password: PASSWORD }),
        params: jsonParams('login'),
      })),
    );
    logins.forEach((res) => {
      if (res.status !== 200) fail(signUpFailure('POST /api/auth/login', res));
      tokens.push(res.json('access_token'));
    });
  }
  check(tokens, { 'every account signed in': (t) => t.length === count });
  return tokens;
}
