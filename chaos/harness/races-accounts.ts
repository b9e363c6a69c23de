import { randomUUID } from 'node:crypto';
import { clearWithdrawals } from '@updown/wallet';
import type { Trade, UserResponse } from '@updown/schemas/api';
import { ApiClient, newUser } from '../../e2e/harness/api';
import type { RacePlatform } from './races-platform';

/** A signed-in account: its id and its access token. */
export interface Account {
  readonly id: string;
  readonly token: string;
}

/**
 * Registers and signs in a new account through the API, as a visitor would. An admin is promoted
 * in the database before signing in, so the role travels in its access token. Every account is
 * cleared for withdrawals (identity verification is not what the races test).
 */
export async function signUp(
  platform: RacePlatform,
  label: string,
  role: 'user' | 'admin' = 'user',
): Promise<Account> {
  const api = new ApiClient(platform.baseUrl);
  const user = newUser(label);
  const registered = await api.request<UserResponse>('POST', '/api/auth/register', { body: user });
  if (role === 'admin') {
    await platform.db.updateTable('users').set({ role }).where('id', '=', registered.id).execute();
  }
  // Set-up, not the race: the account's identity counts as verified, so its withdrawals are taken.
  await platform.db
    .transaction()
    .execute((trx) =>
      clearWithdrawals(trx, { userId: registered.id, sourceId: randomUUID(), at: Date.now() }),
    );
  const token = await api.login(user.email, user.password);
  return { id: registered.id, token };
}

/** A request that must succeed (set-up, not the race): throws with the answer otherwise. */
export function call<T>(
  platform: RacePlatform,
  method: 'GET' | 'POST',
  url: string,
  token: string,
  body?: unknown,
): Promise<T> {
  return new ApiClient(platform.baseUrl).request<T>(method, url, { token, body });
}

/** A real deposit through the mock provider; without approval required it is credited at once. */
export function depositReal(platform: RacePlatform, who: Account, cents: number) {
  return call<{ status: string; request: { id: string } | null }>(
    platform,
    'POST',
    '/api/wallet/deposit',
    who.token,
    { amount: cents / 100, account_type: 'real' },
  );
}

export interface PlaceBody {
  readonly pair: string;
  readonly direction: 'UP' | 'DOWN';
  readonly amount: number;
  readonly duration: number;
  readonly account_type: 'real' | 'demo';
}

/** Places one trade for set-up, once the pair has a fresh price. */
export async function placeTrade(platform: RacePlatform, who: Account, body: PlaceBody): Promise<Trade> {
  await platform.freshTick(body.pair);
  return call<Trade>(platform, 'POST', '/api/trades/place', who.token, body);
}
