import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { expect } from 'vitest';
import type { Clock } from '@updown/runtime';
import { TRADE_DURATIONS_SEC } from '@updown/order';
import { TEST_ADMIN } from '@updown/platform/testing';
import type { FieldHints } from '@updown/schemas/testing';
import { IDENTITY_DETAILS, ownDocumentUpload } from '../platform-api';

export type Inject = (request: InjectOptions) => Promise<LightMyRequestResponse>;

/** Bearer tokens the fuzzer sends: an admin, a plain user, and the temporary one of a 2FA sign-in. */
export interface Identities {
  readonly admin: string;
  readonly user: string;
  readonly pendingTwoFactor: string;
}

/**
 * A stand-in for Google's key endpoint on loopback, serving no keys: with Google sign-in
 * configured the route gets past "not configured" (501) and has to refuse bad tokens itself.
 */
export async function startEmptyJwksServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/certs`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function call<T>(
  inject: Inject,
  method: 'GET' | 'POST',
  url: string,
  token: string,
  payload?: object,
): Promise<T> {
  const res = await inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json<T>();
}

async function signIn(inject: Inject, email: string, password: string): Promise<string> {
  const res = await inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ access_token: string }>().access_token;
}

async function signUp(inject: Inject, name: string, email: string, password: string): Promise<string> {
  const res = await inject({ method: 'POST', url: '/api/auth/register', payload: { name, email, password } });
  expect(res.statusCode, res.body).toBe(201);
  return signIn(inject, email, password);
}

/** The admin from the environment, a plain user, and a user with 2FA half-way through sign-in. */
export async function identities(inject: Inject, clock: Clock): Promise<Identities & { totp: string }> {
  const admin = await signIn(inject, TEST_ADMIN.email, TEST_ADMIN.password);
  const user = await signUp(inject, 'Fuzz User', 'fuzz.user@example.com', 'Fuzz-pass-123');
  const guarded = await signUp(inject, 'Fuzz Guarded', 'fuzz.2fa@example.com', 'Fuzz-pass-456');
  const { secret } = await call<{ secret: string }>(inject, 'POST', '/api/2fa/setup', guarded, {
    password: 'Fuzz-pass-456',
  });
  const totp = await generate({ secret, epoch: Math.floor(clock.now() / 1000) });
  await call(inject, 'POST', '/api/2fa/enable', guarded, { token: totp });
  const pendingTwoFactor = await signIn(inject, 'fuzz.2fa@example.com', 'Fuzz-pass-456');
  return { admin, user, pendingTwoFactor, totp };
}

/**
 * Real values for fields the schemas only describe as "a string" or "a uuid": existing pairs, a
 * trade and a pending withdrawal of the user, the users' ids, their emails. They let generated
 * requests reach the handlers and move money, not only fail validation.
 */
/**
 * The user's identity verified through the API, as the console does it (upload, submit, the
 * admin's approval), so withdrawals are taken and the ids are real hints.
 */
async function verifyIdentity(
  inject: Inject,
  who: Identities,
): Promise<{ submissionId: string; documentIds: string[] }> {
  const me = await call<{ id: string }>(inject, 'GET', '/api/auth/me', who.user);
  const documentIds: string[] = [];
  for (const kind of ['photo_id', 'proof_of_address']) {
    const upload = ownDocumentUpload(me.id, kind);
    const res = await inject({
      method: 'POST',
      url: '/api/identity/documents',
      headers: { authorization: `Bearer ${who.user}`, ...upload.headers },
      payload: upload.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    documentIds.push(res.json<{ id: string }>().id);
  }
  await call(inject, 'POST', '/api/identity/submit', who.user, IDENTITY_DETAILS);
  const queue = await call<{ id: string; user_id: string }[]>(
    inject,
    'GET',
    '/api/admin/verifications',
    who.admin,
  );
  const submissionId = queue.find((s) => s.user_id === me.id)!.id;
  await call(inject, 'POST', `/api/admin/verifications/${submissionId}`, who.admin, { action: 'approve' });
  return { submissionId, documentIds };
}

export async function fieldHints(inject: Inject, who: Identities & { totp: string }): Promise<FieldHints> {
  const pairs = await call<{ symbol: string }[]>(inject, 'GET', '/api/market/pairs', who.user);
  const symbols = pairs.map((p) => p.symbol);
  const trade = await call<{ id: string }>(inject, 'POST', '/api/trades/place', who.user, {
    pair: symbols[0],
    direction: 'UP',
    amount: 5,
    duration: 60,
    account_type: 'demo',
  });
  await call(inject, 'POST', '/api/wallet/deposit', who.user, { amount: 500, account_type: 'real' });
  const verification = await verifyIdentity(inject, who);
  const withdrawal = await call<{ request?: { id: string } }>(
    inject,
    'POST',
    '/api/wallet/withdraw',
    who.user,
    {
      amount: 50,
      account_type: 'real',
    },
  );
  const me = await call<{ id: string }>(inject, 'GET', '/api/auth/me', who.user);
  const admin = await call<{ id: string }>(inject, 'GET', '/api/auth/me', who.admin);
  return {
    pair: symbols,
    symbol: [...symbols, symbols[0]!.toLowerCase()],
    duration: TRADE_DURATIONS_SEC,
    amount: [1, 2.5, 10, 100],
    id: [
      trade.id,
      withdrawal.request?.id ?? trade.id,
      verification.submissionId,
      ...verification.documentIds,
    ],
    user_id: [me.id, admin.id],
    email: [TEST_ADMIN.email, 'fuzz.user@example.com', 'new.fuzz@example.com'],
    password: [TEST_ADMIN.password, 'Another-pass-123'],
    token: ['000000', who.totp],
    payout_pct: [1, 85, 100],
  };
}
