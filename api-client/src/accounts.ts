import { randomBytes } from 'node:crypto';
import type { ApiClient } from './client';

/**
 * The one way the suites open an account: registration and sign-in through the public API, as a
 * visitor does. What only the database can do for a test (an admin's role, withdrawals cleared
 * without an identity check, money without a deposit) is the owning package's testing helper's
 * business (`@updown/accounts/testing`, `@updown/gateway/testing`, `@updown/wallet/testing`), not the client's.
 */

export interface NewUser {
  readonly name: string;
  readonly email: string;
  readonly password: string;
}

/** Tokens of a signed-in session. */
export interface Session {
  readonly accessToken: string;
  readonly refreshToken: string;
}

export interface SignedUp extends NewUser, Session {
  readonly id: string;
}

/** A user nobody has registered yet, unique to this run: `label` shows in the name and the address. */
export function newUser(label = 'trader', password = `pw-${randomBytes(8).toString('hex')}`): NewUser {
  const id = randomBytes(5).toString('hex');
  const slug =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'user';
  return { name: `${label} ${id}`, email: `${slug}-${id}@example.com`, password };
}

/** Signs in with a password; throws when the account needs a second factor (use the 2FA routes). */
export async function signIn(
  api: ApiClient,
  credentials: { readonly email: string; readonly password: string },
  options: { readonly timeoutMs?: number } = {},
): Promise<Session> {
  const login = await api.post(
    '/api/auth/login',
    { email: credentials.email, password: credentials.password },
    options,
  );
  if (login.requires_2fa) throw new Error(`${credentials.email} needs a second factor to sign in`);
  return { accessToken: login.access_token, refreshToken: login.refresh_token };
}

/** Registers `user` (a new one by default) and signs in. */
export async function signUp(
  api: ApiClient,
  user: NewUser = newUser(),
  options: { readonly timeoutMs?: number } = {},
): Promise<SignedUp> {
  const registered = await api.post('/api/auth/register', user, options);
  return { ...user, id: registered.id, ...(await signIn(api, user, options)) };
}
