import { setRole } from '@updown/accounts/testing';
import { newUser, signIn, signUp as register } from '@updown/api-client';
import type { BodyOf, Schemas } from '@updown/schemas/openapi';
import { clearForWithdrawals } from '@updown/wallet/testing';
import type { RacePlatform } from './races-platform';

/** A signed-in account: its id and its access token. */
export interface Account {
  readonly id: string;
  readonly token: string;
}

/**
 * Registers and signs in a new account through the API, as a visitor would. An admin is promoted
 * with accounts' `setRole` and signs in again, so the role travels in its access token. Every account is
 * cleared for withdrawals (identity verification is not what the races test).
 */
export async function signUp(
  platform: RacePlatform,
  label: string,
  role: 'user' | 'admin' = 'user',
): Promise<Account> {
  const user = await register(platform.api, newUser(label));
  let { accessToken } = user;
  if (role === 'admin') {
    await setRole(platform.db, user.id, role, new Date());
    ({ accessToken } = await signIn(platform.api, user));
  }
  await clearForWithdrawals(platform.db, user.id);
  return { id: user.id, token: accessToken };
}

/** A real deposit through the mock provider; without approval required it is credited at once. */
export function depositReal(platform: RacePlatform, who: Account, cents: number) {
  return platform.api.post(
    '/api/wallet/deposit',
    { amount: cents / 100, account_type: 'real' },
    { token: who.token },
  );
}

export type PlaceBody = BodyOf<'/api/trades/place', 'post'>;

/** Places one trade for set-up, once the pair has a fresh price. */
export async function placeTrade(
  platform: RacePlatform,
  who: Account,
  body: PlaceBody,
): Promise<Schemas['Trade']> {
  await platform.freshTick(body.pair);
  return platform.api.post('/api/trades/place', body, { token: who.token });
}
