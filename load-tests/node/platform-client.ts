import { randomBytes } from 'node:crypto';
import pMap from 'p-map';
import { ApiClient, fetchTransport, type Answer } from '@updown/api-client';
import type { Schemas } from '@updown/schemas/openapi';
import type { Recorder } from './metrics';

/**
 * The API calls the scenarios make outside the measured load (setup, polling), through the shared
 * client, each recorded like k6 records its requests. Every call has a timeout.
 */

export const REQUEST_TIMEOUT_MS = 10_000;
/** Sign-up waits its turn for the password hasher, which a busy machine slows a lot. */
export const SIGN_UP_TIMEOUT_MS = 60_000;
/** Sign-ups and logins at once: the gateway hashes 4 passwords at a time and refuses past 256 queued. */
export const SIGN_UP_CONCURRENCY = 8;
export const PASSWORD = 'load-test-password';

/** Thrown when a run cannot start; the message says what to change. */
export class SetupError extends Error {
  override name = 'SetupError';
}

/**
 * The client of one scenario: every answer goes to `recorder` under the call's name, and a call
 * that got none (refused, reset, timed out) as status 0, as k6 counts it.
 */
export function loadClient(recorder: Recorder, baseUrl: string): ApiClient {
  return new ApiClient(fetchTransport(baseUrl, { timeoutMs: REQUEST_TIMEOUT_MS }), {
    onAnswer: (name, answer) => recorder.http(name, answer.status, answer.durationMs),
    onFailure: (name, _error, durationMs) => recorder.http(name, 0, durationMs),
  });
}

/** What a call answered. */
export interface Reply<T> {
  /** 0 when no response arrived; `text` then holds the error. */
  readonly status: number;
  readonly body: T | undefined;
  readonly text: string;
}

/** A call's answer, or status 0 when none came: a scenario counts it and carries on, as k6 does. */
export async function reply<T>(call: Promise<Answer<T>>): Promise<Reply<T>> {
  try {
    return await call;
  } catch (error) {
    return { status: 0, body: undefined, text: error instanceof Error ? error.message : String(error) };
  }
}

/** A short id that keeps this run's accounts and idempotency keys apart from every other run's. */
export function newRunId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export async function activePairs(api: ApiClient): Promise<string[]> {
  const listed = await reply(api.send('get', '/api/market/pairs', undefined, { name: 'pairs' }));
  if (listed.status !== 200 || !Array.isArray(listed.body)) {
    throw new SetupError(`GET /api/market/pairs answered ${listed.status}: ${listed.text.slice(0, 200)}`);
  }
  const pairs = listed.body.filter((pair) => pair.active).map((pair) => pair.symbol);
  if (pairs.length === 0) throw new SetupError('no active pair to trade');
  return pairs;
}

export interface LoadUser {
  readonly email: string;
  readonly token: string;
}

function signUpProblem(step: string, refused: Reply<unknown>): SetupError {
  const problem = refused.body as { detail?: string } | undefined;
  const detail = problem?.detail ?? refused.text.slice(0, 200);
  const hint =
    refused.status === 429
      ? ' — the per-IP sign-in ceiling was reached: start the platform with a higher AUTH_IP_RATE_MAX (see load-tests/README.md)'
      : '';
  return new SetupError(`${step} answered ${refused.status}: ${detail}${hint}`);
}

/**
 * Registers and signs in `count` fresh accounts (each gets the demo grant of $10,000), named as
 * the k6 scripts name theirs. Two password hashes per account make this the slow part of a setup:
 * about 20 accounts a second here.
 */
export async function createUsers(api: ApiClient, count: number, runId: string): Promise<LoadUser[]> {
  const indexes = Array.from({ length: count }, (_, index) => index);
  return pMap(
    indexes,
    async (index) => {
      const email = `load-${runId}-${index}@example.com`;
      const registered = await reply(
        api.send(
          'post',
          '/api/auth/register',
          { name: `Load Tester ${index}`, email, password: PASSWORD },
          { name: 'register', timeoutMs: SIGN_UP_TIMEOUT_MS },
        ),
      );
      if (registered.status !== 201) throw signUpProblem('POST /api/auth/register', registered);
      const login = await reply(
        api.send(
          'post',
          '/api/auth/login',
          { email, password: PASSWORD },
          { name: 'login', timeoutMs: SIGN_UP_TIMEOUT_MS },
        ),
      );
      if (login.status !== 200 || login.body === undefined)
        throw signUpProblem('POST /api/auth/login', login);
      return { email, token: login.body.access_token };
    },
    { concurrency: SIGN_UP_CONCURRENCY },
  );
}

export function placeTrade(
  api: ApiClient,
  token: string,
  body: Schemas['PlaceTradeBody'],
  idempotencyKey: string,
): Promise<Reply<Schemas['Trade']>> {
  return reply(api.send('post', '/api/trades/place', body, { token, idempotencyKey, name: 'place' }));
}

export function tradeHistory(
  api: ApiClient,
  token: string,
  limit: number,
): Promise<Reply<Schemas['Trade'][]>> {
  return reply(
    api.send('get', '/api/trades/history', undefined, { token, query: { limit }, name: 'history' }),
  );
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
