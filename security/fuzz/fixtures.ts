import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'otplib';
import { signIn, signUp, type ApiClient } from '@updown/api-client';
import type { Clock } from '@updown/runtime';
import { TRADE_DURATIONS_SEC } from '@updown/order';
import { TEST_ADMIN } from '@updown/platform/testing';
import type { FieldHints } from '@updown/schemas/testing';
import { ownDocumentForm } from '@updown/accounts/testing';
import { IDENTITY_DETAILS } from '../platform-api';

/** Bearer tokens the fuzzer sends: an admin, a plain user, and the temporary one of a 2FA sign-in. */
export interface Identities {
  readonly admin: string;
  readonly user: string;
  readonly pendingTwoFactor: string;
}

/** The plain user, whose address is also a hint for the fields that take an email. */
const FUZZ_USER = { name: 'Fuzz User', email: 'fuzz.user@example.com', password: 'Fuzz-pass-123' };

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

/** The admin from the environment, a plain user, and a user with 2FA half-way through sign-in. */
export async function identities(api: ApiClient, clock: Clock): Promise<Identities & { totp: string }> {
  const admin = (await signIn(api, TEST_ADMIN)).accessToken;
  const user = (await signUp(api, FUZZ_USER)).accessToken;
  const guarded = await signUp(api, {
    name: 'Fuzz Guarded',
    email: 'fuzz.2fa@example.com',
    password: 'Fuzz-pass-456',
  });
  const { secret } = await api.post(
    '/api/2fa/setup',
    { password: guarded.password },
    { token: guarded.accessToken },
  );
  const totp = await generate({ secret, epoch: Math.floor(clock.nowMs() / 1000) });
  await api.post('/api/2fa/enable', { token: totp }, { token: guarded.accessToken });
  // The first step of the sign-in: its token is the temporary one, which only the second accepts.
  const login = await api.post('/api/auth/login', { email: guarded.email, password: guarded.password });
  return { admin, user, pendingTwoFactor: login.access_token, totp };
}

/**
 * The user's identity verified through the API, as the console does it (upload, submit, the
 * admin's approval), so withdrawals are taken and the ids are real hints.
 */
async function verifyIdentity(
  api: ApiClient,
  who: Identities,
): Promise<{ submissionId: string; documentIds: string[] }> {
  const me = await api.get('/api/auth/me', { token: who.user });
  const documentIds: string[] = [];
  for (const kind of ['photo_id', 'proof_of_address'] as const) {
    const document = await api.post('/api/identity/documents', ownDocumentForm(me.id, kind), {
      token: who.user,
    });
    documentIds.push(document.id);
  }
  await api.post('/api/identity/submit', IDENTITY_DETAILS, { token: who.user });
  const queue = await api.get('/api/admin/verifications', { token: who.admin });
  const submissionId = queue.find((s) => s.user_id === me.id)!.id;
  await api.post(
    '/api/admin/verifications/{id}',
    { action: 'approve' },
    { params: { id: submissionId }, token: who.admin },
  );
  return { submissionId, documentIds };
}

/**
 * Real values for fields the schemas only describe as "a string" or "a uuid": existing pairs, a
 * trade and a pending withdrawal of the user, the users' ids, their emails. They let generated
 * requests reach the handlers and move money, not only fail validation.
 */
export async function fieldHints(api: ApiClient, who: Identities & { totp: string }): Promise<FieldHints> {
  const pairs = await api.get('/api/market/pairs', { token: who.user });
  const symbols = pairs.map((p) => p.symbol);
  const trade = await api.post(
    '/api/trades/place',
    { pair: symbols[0]!, direction: 'UP', amount: 5, duration: 60, account_type: 'demo' },
    { token: who.user, idempotencyKey: randomUUID() },
  );
  await api.post(
    '/api/wallet/deposit',
    { amount: 500, account_type: 'real' },
    { token: who.user, idempotencyKey: randomUUID() },
  );
  const verification = await verifyIdentity(api, who);
  const withdrawal = await api.post(
    '/api/wallet/withdraw',
    { amount: 50, account_type: 'real' },
    { token: who.user, idempotencyKey: randomUUID() },
  );
  const me = await api.get('/api/auth/me', { token: who.user });
  const admin = await api.get('/api/auth/me', { token: who.admin });
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
    email: [TEST_ADMIN.email, FUZZ_USER.email, 'new.fuzz@example.com'],
    password: [TEST_ADMIN.password, 'Another-pass-123'],
    token: ['000000', who.totp],
    payout_pct: [1, 85, 100],
  };
}
