import { randomBytes } from 'node:crypto';
import type { LoginResponse, MarketPair, PlaceTradeBody, Trade } from '@updown/schemas/api';
import type { Recorder } from './metrics';

/**
 * The API calls the scenarios make outside the measured load (setup, polling), through fetch, each
 * recorded like k6 records its requests. Every call has a timeout.
 */

export const REQUEST_TIMEOUT_MS = 10_000;
/** Sign-up waits its turn for the password hasher, which a busy machine slows a lot. */
export const SIGN_UP_TIMEOUT_MS = 60_000;
/** Sign-ups and logins at once: the gateway hashes 4 passwords at a time and refuses past 256 queued. */
export const SIGN_UP_CONCURRENCY = 8;
export const PASSWORD = 'load-test-password';

export interface HttpReply<T> {
  /** 0 when no response arrived (refused, reset, timed out). */
  readonly status: number;
  readonly body: T | undefined;
  readonly text: string;
  readonly durationMs: number;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly timeoutMs?: number;
}

/** Thrown when a run cannot start; the message says what to change. */
export class SetupError extends Error {
  override name = 'SetupError';
}

export async function request<T>(
  recorder: Recorder,
  name: string,
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  options: RequestOptions = {},
): Promise<HttpReply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  let status = 0;
  let text = '';
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
    status = response.status;
  } catch (error) {
    text = error instanceof Error ? error.message : String(error);
  }
  const durationMs = performance.now() - started;
  recorder.http(name, status, durationMs);
  return { status, body: parseJson<T>(text), text, durationMs };
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Runs `task` over `items` with at most `limit` in flight, keeping the results' order. */
export async function mapLimit<I, O>(
  items: readonly I[],
  limit: number,
  task: (item: I, index: number) => Promise<O>,
): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A short id that keeps this run's accounts and idempotency keys apart from every other run's. */
export function newRunId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export async function activePairs(recorder: Recorder, baseUrl: string): Promise<string[]> {
  const reply = await request<MarketPair[]>(recorder, 'pairs', baseUrl, 'GET', '/api/market/pairs');
  if (reply.status !== 200 || !Array.isArray(reply.body)) {
    throw new SetupError(`GET /api/market/pairs answered ${reply.status}: ${reply.text.slice(0, 200)}`);
  }
  const pairs = reply.body.filter((pair) => pair.active).map((pair) => pair.symbol);
  if (pairs.length === 0) throw new SetupError('no active pair to trade');
  return pairs;
}

export interface LoadUser {
  readonly email: string;
  readonly token: string;
}

function signUpProblem(step: string, reply: HttpReply<{ detail?: string }>): SetupError {
  const detail = reply.body?.detail ?? reply.text.slice(0, 200);
  const hint =
    reply.status === 429
      ? ' — the per-IP sign-in ceiling was reached: start the platform with a higher AUTH_IP_RATE_MAX (see load-tests/README.md)'
      : '';
  return new SetupError(`${step} answered ${reply.status}: ${detail}${hint}`);
}

/**
 * Registers and signs in `count` fresh accounts (each gets the demo grant of $10,000). Two
 * password hashes per account make this the slow part of a setup: about 20 accounts a second here.
 */
export async function createUsers(
  recorder: Recorder,
  baseUrl: string,
  count: number,
  runId: string,
): Promise<LoadUser[]> {
  const indexes = Array.from({ length: count }, (_, index) => index);
  return mapLimit(indexes, SIGN_UP_CONCURRENCY, async (index) => {
    const email = `load-${runId}-${index}@example.com`;
    const registered = await request<{ detail?: string }>(
      recorder,
      'register',
      baseUrl,
      'POST',
      '/api/auth/register',
      { body: { name: `Load Tester ${index}`, email, password: PASSWORD }, timeoutMs: SIGN_UP_TIMEOUT_MS },
    );
    if (registered.status !== 201) throw signUpProblem('POST /api/auth/register', registered);
    const login = await request<LoginResponse & { detail?: string }>(
      recorder,
      'login',
      baseUrl,
      'POST',
      '/api/auth/login',
      { body: { email, password: PASSWORD }, timeoutMs: SIGN_UP_TIMEOUT_MS },
    );
    if (login.status !== 200 || login.body === undefined) throw signUpProblem('POST /api/auth/login', login);
    return { email, token: login.body.access_token };
  });
}

export function placeTrade(
  recorder: Recorder,
  baseUrl: string,
  token: string,
  body: PlaceTradeBody,
  idempotencyKey: string,
): Promise<HttpReply<Trade>> {
  return request<Trade>(recorder, 'place', baseUrl, 'POST', '/api/trades/place', {
    token,
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
}

export function tradeHistory(
  recorder: Recorder,
  baseUrl: string,
  token: string,
  limit: number,
): Promise<HttpReply<Trade[]>> {
  return request<Trade[]>(recorder, 'history', baseUrl, 'GET', `/api/trades/history?limit=${limit}`, {
    token,
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
