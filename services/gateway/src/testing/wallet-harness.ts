import type { LightMyRequestResponse } from 'fastify';
import { setRole } from '@updown/accounts/testing';
import { ManualClock } from '@updown/runtime';
import type { TestDatabase } from '@updown/runtime/testing';
import { createAdminPlugin } from '../admin/admin.routes';
import {
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { createLeaderboardPlugin } from '../leaderboard/leaderboard.routes';
import { verifyLedger, type PaymentProvider } from '@updown/wallet';
import { clearForWithdrawals } from '@updown/wallet/testing';
import { createWalletPlugin } from '../wallet/wallet.routes';

/** The gateway with auth, wallet, admin and leaderboard over a test database, on one manual clock. */
export interface WalletHarness {
  readonly t: AuthTestApp;
  /** The clock the wallet, admin and leaderboard read (auth keeps its own). */
  readonly clock: ManualClock;
  /** A signed-in user whose identity counts as verified (withdrawals open). */
  user(name?: string): Promise<{ id: string; token: string; name: string }>;
  admin(): Promise<{ id: string; token: string; name: string }>;
  postings(): Promise<number>;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    token?: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
}

export async function walletHarness(
  database: TestDatabase,
  options: { payments?: PaymentProvider; startMs?: number } = {},
): Promise<WalletHarness> {
  const clock = new ManualClock(options.startMs ?? Date.now());
  const db = database.db;
  const t = await authTestApp(db, {
    plugins: [
      createWalletPlugin({ db, clock, payments: options.payments }),
      createAdminPlugin({ db, clock, payments: options.payments }),
      createLeaderboardPlugin({ db, clock }),
    ],
  });
  const user = async (name?: string, role: 'user' | 'admin' = 'user') => {
    const account = newAccount('wallet');
    if (name) account.name = name;
    const { id } = await register(t.app, account);
    // Promoted before login so the token's role claim says admin too.
    if (role === 'admin') await setRole(db, id, role, new Date(clock.nowMs()));
    const { access_token } = await login(t.app, account.email, account.password);
    // Withdrawals need a verified identity; the flow itself is identity.int.test.ts's subject.
    await clearForWithdrawals(db, id);
    return { id, token: access_token, name: account.name };
  };
  return {
    t,
    clock,
    user: (name?: string) => user(name),
    admin: () => user(undefined, 'admin'),
    async postings() {
      return (await verifyLedger(db)).postings;
    },
    call(method, url, token, payload) {
      return t.app.inject({
        method,
        url,
        headers: token ? bearer(token) : {},
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
    },
  };
}
