import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { newUser } from '@updown/api-client';
import { PAIR, PLACE_TRADE_BODY, type Identity, type MatrixFixtures } from './matrix-fixtures';
import { ownDocumentForm } from '@updown/accounts/testing';
import { IDENTITY_DETAILS } from './platform-api';

/**
 * Who may call what: every route the gateway registers, keyed `METHOD url` exactly as Fastify
 * registers it, with the status each principal gets. `authorization-matrix.int.test.ts` sends
 * every case and fails on a registered route missing here, or an entry no route answers to.
 */

export const PRINCIPALS = [
  'anonymous',
  'user',
  /** A signed-in user acting on user A's resource where the route takes one; else just a user. */
  'otherUser',
  'admin',
  /** A correctly signed access token past its expiry. */
  'expiredToken',
  /** A real access token whose payload was changed (role: admin) without re-signing. */
  'tamperedToken',
  /** The temporary token a password login answers when two-factor is on. */
  'twoFactorToken',
  /** A refresh token after logout, where a refresh token goes and as a bearer elsewhere. */
  'revokedRefresh',
  /**
   * The access token of a session that logged out (its refresh token where a refresh token goes):
   * correctly signed and unexpired, refused because its session ended.
   */
  'endedSession',
] as const;
export type Principal = (typeof PRINCIPALS)[number];
export type Expected = Readonly<Record<Principal, number>>;

export interface CaseContext {
  readonly principal: Principal;
  /** The calling account for user, other user and admin; undefined for the other principals. */
  readonly caller: Identity | undefined;
  readonly fx: MatrixFixtures;
  /** What this principal would send as `refresh_token`; undefined for anonymous. */
  refreshCredential(): Promise<string | undefined>;
}

export interface CaseRequest {
  readonly method: NonNullable<InjectOptions['method']>;
  readonly url: string;
  readonly payload?: object;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface MatrixEntry {
  readonly expect: Expected;
  /**
   * For routes that change the caller's own state (two-factor on or off, a bonus): user, other
   * user and admin call as new accounts of their kind, so no case depends on an earlier one.
   */
  readonly freshCaller?: boolean;
  /** The credential goes in Authorization (default), or the request builder puts it in the query. */
  readonly credential?: 'bearer' | 'refresh-query';
  /** Sent as a WebSocket upgrade over a real connection; the status is the upgrade's answer. */
  readonly websocket?: boolean;
  request(c: CaseContext): CaseRequest | Promise<CaseRequest>;
}

/** The same answer whoever asks: a public route, where no credential changes anything. */
function everyone(status: number): Expected {
  return {
    anonymous: status,
    user: status,
    otherUser: status,
    admin: status,
    expiredToken: status,
    tamperedToken: status,
    twoFactorToken: status,
    revokedRefresh: status,
    endedSession: status,
  };
}

/** Needs a valid access token: 401 for every broken credential, including the two-factor token. */
function signedIn(status: number): Expected {
  return { ...everyone(401), user: status, otherUser: status, admin: status };
}

/** A user's own resource: the owner and an admin get it; another user gets `otherUser`. */
function ownerOrAdmin(status: number, otherUser: number): Expected {
  return { ...signedIn(status), otherUser };
}

/** `/api/admin/*`: 403 for a signed-in user, 401 without a valid access token. */
function adminOnly(status: number): Expected {
  return { ...everyone(401), user: 403, otherUser: 403, admin: status };
}

const CODE_NOT_CHECKED = '000000';
const SOME_UUID = '00000000-0000-4000-8000-000000000000';

/** The caller's password as a step-up, or a dummy for principals that never pass the auth check. */
function stepUpProof(c: CaseContext): { password: string } {
  return { password: c.caller?.password ?? 'not-checked' };
}

/** A code the caller's account can use, or a dummy for principals that never pass the auth check. */
async function twoFactorCode(c: CaseContext, enable: boolean): Promise<string> {
  if (!c.caller) return CODE_NOT_CHECKED;
  const totp = enable ? await c.fx.enableTwoFactor(c.caller) : await c.fx.setUpTwoFactor(c.caller);
  return c.fx.totpCode(totp);
}

const get = (url: string): CaseRequest => ({ method: 'GET', url });
const html = { accept: 'text/html' };

export const AUTHORIZATION_MATRIX: Readonly<Record<string, MatrixEntry>> = {
  // Operations, docs and the console: public.
  // The CORS preflight route. With no CORS_ORIGINS the API is same-origin only, so a preflight
  // finds no route (and gets no Access-Control-Allow-* header): the browser refuses the call.
  'OPTIONS *': {
    expect: everyone(404),
    request: () => ({
      method: 'OPTIONS',
      url: '/api/wallet',
      headers: { origin: 'http://127.0.0.1:9', 'access-control-request-method': 'GET' },
    }),
  },
  'GET /docs': { expect: everyone(200), request: () => get('/docs') },
  // Swagger UI redirects its static index page to /docs/.
  'GET /docs/static/index.html': { expect: everyone(302), request: () => get('/docs/static/index.html') },
  'GET /docs/static/swagger-initializer.js': {
    expect: everyone(200),
    request: () => get('/docs/static/swagger-initializer.js'),
  },
  'GET /docs/json': { expect: everyone(200), request: () => get('/docs/json') },
  'GET /docs/asyncapi/market-ws.json': {
    expect: everyone(200),
    request: () => get('/docs/asyncapi/market-ws.json'),
  },
  'GET /docs/yaml': { expect: everyone(200), request: () => get('/docs/yaml') },
  'GET /docs/static/*': { expect: everyone(200), request: () => get('/docs/static/swagger-ui.css') },
  'GET /healthz': { expect: everyone(200), request: () => get('/healthz') },
  'GET /readyz': { expect: everyone(200), request: () => get('/readyz') },
  'GET /metrics': { expect: everyone(200), request: () => get('/metrics') },
  'GET /*': { expect: everyone(200), request: () => ({ method: 'GET', url: '/', headers: html }) },

  // Accounts and sessions: the credential is in the body or the query, a bearer changes nothing.
  'POST /api/auth/register': {
    expect: everyone(201),
    request: () => ({ method: 'POST', url: '/api/auth/register', payload: newUser('matrix') }),
  },
  'POST /api/auth/login': {
    expect: everyone(200),
    request: (c) => {
      const { email, password } = c.fx.principals.owner;
      return { method: 'POST', url: '/api/auth/login', payload: { email, password } };
    },
  },
  'POST /api/auth/refresh': {
    credential: 'refresh-query',
    // Anonymous sends no token at all: the query schema refuses it.
    expect: { ...signedIn(200), anonymous: 400 },
    request: async (c) => ({
      method: 'POST',
      url: withRefreshToken('/api/auth/refresh', await c.refreshCredential()),
    }),
  },
  'POST /api/auth/logout': {
    credential: 'refresh-query',
    // Any token is "ok" (an unknown one ends nothing), so logout tells nobody which tokens are live.
    expect: { ...everyone(200), anonymous: 400 },
    request: async (c) => ({
      method: 'POST',
      url: withRefreshToken('/api/auth/logout', await c.refreshCredential()),
    }),
  },
  'GET /api/auth/me': { expect: signedIn(200), request: () => get('/api/auth/me') },
  // Both end sessions of the caller: fresh callers, so no later case finds its token ended.
  'POST /api/auth/logout-all': {
    expect: signedIn(200),
    freshCaller: true,
    request: () => ({ method: 'POST', url: '/api/auth/logout-all' }),
  },
  'POST /api/auth/password': {
    expect: signedIn(200),
    freshCaller: true,
    request: (c) => ({
      method: 'POST',
      url: '/api/auth/password',
      payload: { current_password: c.caller?.password ?? 'not-checked', new_password: 'matrix-new-password' },
    }),
  },
  'POST /api/auth/google-login': {
    // Google sign-in is off without GOOGLE_CLIENT_ID.
    expect: everyone(501),
    request: () => ({ method: 'POST', url: '/api/auth/google-login', payload: { session_token: 'a.b.c' } }),
  },

  // Two-factor.
  // Sensitive actions carry their step-up (the caller's password), so the case does not depend on
  // how long ago the principal signed in; the step-up itself is tested in security.int.test.ts.
  'POST /api/2fa/setup': {
    expect: signedIn(200),
    request: (c) => ({ method: 'POST', url: '/api/2fa/setup', payload: stepUpProof(c) }),
  },
  'POST /api/2fa/enable': {
    freshCaller: true,
    expect: signedIn(200),
    request: async (c) => ({
      method: 'POST',
      url: '/api/2fa/enable',
      payload: { token: await twoFactorCode(c, false), ...stepUpProof(c) },
    }),
  },
  'POST /api/2fa/verify': {
    // The one route the temporary token opens; an access token is refused there.
    expect: { ...everyone(401), twoFactorToken: 200 },
    request: async (c) => ({
      method: 'POST',
      url: '/api/2fa/verify',
      payload: {
        token:
          c.principal === 'twoFactorToken'
            ? await c.fx.totpCode(c.fx.principals.twoFactor.totp)
            : CODE_NOT_CHECKED,
      },
    }),
  },
  'POST /api/2fa/disable': {
    freshCaller: true,
    expect: signedIn(200),
    request: async (c) => ({
      method: 'POST',
      url: '/api/2fa/disable',
      payload: { token: await twoFactorCode(c, true), ...stepUpProof(c) },
    }),
  },
  'POST /api/auth/step-up': {
    expect: signedIn(200),
    request: (c) => ({ method: 'POST', url: '/api/auth/step-up', payload: stepUpProof(c) }),
  },
  'GET /api/auth/sessions': { expect: signedIn(200), request: () => get('/api/auth/sessions') },
  // Ends one of the caller's own sessions: a fresh caller signs in once more and ends that one.
  'DELETE /api/auth/sessions/:id': {
    expect: signedIn(200),
    freshCaller: true,
    request: async (c) => ({
      method: 'DELETE',
      url: `/api/auth/sessions/${c.caller ? await c.fx.secondSessionOf(c.caller) : SOME_UUID}`,
    }),
  },
  'GET /api/auth/security-activity': {
    expect: signedIn(200),
    request: () => get('/api/auth/security-activity'),
  },
  'GET /api/admin/users/:id/security-activity': {
    expect: adminOnly(200),
    request: (c) => get(`/api/admin/users/${c.fx.principals.owner.id}/security-activity`),
  },

  // Market data: public, the socket included.
  'GET /api/market/pairs': { expect: everyone(200), request: () => get('/api/market/pairs') },
  'GET /api/market/candles': {
    expect: everyone(200),
    request: () => get(`/api/market/candles?pair=${PAIR}&timeframe=1m`),
  },
  'GET /api/market/ws': {
    websocket: true,
    expect: everyone(101),
    request: () => get(`/api/market/ws?pair=${PAIR}`),
  },

  // Trades.
  'POST /api/trades/place': {
    expect: signedIn(201),
    request: () => ({ method: 'POST', url: '/api/trades/place', payload: PLACE_TRADE_BODY }),
  },
  'GET /api/trades/active': { expect: signedIn(200), request: () => get('/api/trades/active') },
  'GET /api/trades/history': { expect: signedIn(200), request: () => get('/api/trades/history') },
  'GET /api/trades/:id': {
    // Someone else's trade answers like a missing one.
    expect: ownerOrAdmin(200, 404),
    request: (c) => get(`/api/trades/${c.fx.principals.tradeId}`),
  },
  // A's trade is still open: its owner and an admin learn the receipt is pending.
  'GET /api/trades/:id/receipt': {
    expect: ownerOrAdmin(409, 404),
    request: (c) => get(`/api/trades/${c.fx.principals.tradeId}/receipt`),
  },
  // Only the owner may dispute (an admin is not the owner): A's open trade is not settled yet.
  'POST /api/trades/:id/disputes': {
    expect: { ...signedIn(409), otherUser: 404, admin: 404 },
    request: (c) => ({
      method: 'POST',
      url: `/api/trades/${c.fx.principals.tradeId}/disputes`,
      payload: { reason: 'The exit price looks wrong' },
    }),
  },
  'GET /api/disputes': { expect: signedIn(200), request: () => get('/api/disputes') },

  // Provable settlement: the key set and the checkpoints are public.
  'GET /.well-known/updown-keys.json': {
    expect: everyone(200),
    request: () => get('/.well-known/updown-keys.json'),
  },
  'GET /api/checkpoints': { expect: everyone(200), request: () => get(`/api/checkpoints?pair=${PAIR}`) },

  // Wallet.
  'GET /api/wallet': { expect: signedIn(200), request: () => get('/api/wallet') },
  'GET /api/wallet/transactions': { expect: signedIn(200), request: () => get('/api/wallet/transactions') },
  'POST /api/wallet/deposit': {
    expect: signedIn(200),
    request: () => ({
      method: 'POST',
      url: '/api/wallet/deposit',
      payload: { amount: 10, account_type: 'real' },
    }),
  },
  'POST /api/wallet/withdraw': {
    expect: signedIn(200),
    request: async (c) => {
      if (c.caller) await c.fx.deposit(c.caller, 10);
      return { method: 'POST', url: '/api/wallet/withdraw', payload: { amount: 5, account_type: 'real' } };
    },
  },
  'POST /api/wallet/cancel-bonus': {
    freshCaller: true,
    expect: signedIn(200),
    request: async (c) => {
      // A first deposit of 20.00 or more earns the bonus there is to cancel.
      if (c.caller) await c.fx.deposit(c.caller, 50);
      return { method: 'POST', url: '/api/wallet/cancel-bonus' };
    },
  },

  // Identity verification: a trader's own; a document is the owner's and the admins'.
  'GET /api/identity': { expect: signedIn(200), request: () => get('/api/identity') },
  'POST /api/identity/documents': {
    freshCaller: true,
    expect: signedIn(201),
    request: (c) => ({
      method: 'POST',
      url: '/api/identity/documents',
      payload: ownDocumentForm(c.caller?.id ?? 'nobody', 'photo_id'),
    }),
  },
  'POST /api/identity/submit': {
    freshCaller: true,
    expect: signedIn(200),
    request: async (c) => {
      if (c.caller) {
        await c.fx.uploadDocument(c.caller, 'photo_id');
        await c.fx.uploadDocument(c.caller, 'proof_of_address');
      }
      return { method: 'POST', url: '/api/identity/submit', payload: IDENTITY_DETAILS };
    },
  },
  'GET /api/identity/documents/:id': {
    expect: ownerOrAdmin(200, 404),
    request: async (c) => get(`/api/identity/documents/${await c.fx.ownerDocument()}`),
  },

  // Admin.
  'GET /api/admin/verifications': { expect: adminOnly(200), request: () => get('/api/admin/verifications') },
  'GET /api/admin/verifications/:id': {
    expect: adminOnly(200),
    request: async (c) => get(`/api/admin/verifications/${await c.fx.pendingVerification()}`),
  },
  'POST /api/admin/verifications/:id': {
    expect: adminOnly(200),
    request: async (c) => ({
      method: 'POST',
      url: `/api/admin/verifications/${await c.fx.pendingVerification()}`,
      payload: { action: 'approve' },
    }),
  },
  'GET /api/admin/users': { expect: adminOnly(200), request: () => get('/api/admin/users') },
  'GET /api/admin/pairs': { expect: adminOnly(200), request: () => get('/api/admin/pairs') },
  'POST /api/admin/pairs': {
    expect: adminOnly(201),
    request: () => {
      const symbol = `NEW${randomBytes(3).toString('hex').toUpperCase()}`;
      return { method: 'POST', url: '/api/admin/pairs', payload: { symbol, display_name: symbol } };
    },
  },
  'PATCH /api/admin/pairs/:symbol': {
    expect: adminOnly(200),
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/admin/pairs/${await c.fx.newPair()}`,
      payload: { active: false },
    }),
  },
  'DELETE /api/admin/pairs/:symbol': {
    expect: adminOnly(200),
    request: async (c) => ({ method: 'DELETE', url: `/api/admin/pairs/${await c.fx.newPair()}` }),
  },
  'PUT /api/admin/pairs/:symbol/feed': {
    expect: adminOnly(200),
    request: async (c) => ({
      method: 'PUT',
      url: `/api/admin/pairs/${await c.fx.newPair()}/feed`,
      payload: { provider: 'OTC' },
    }),
  },
  'GET /api/admin/feeds': { expect: adminOnly(200), request: () => get('/api/admin/feeds') },
  // Risk controls: admin only, every one of them.
  'GET /api/admin/risk': { expect: adminOnly(200), request: () => get('/api/admin/risk') },
  'PUT /api/admin/risk/pairs/:symbol': {
    expect: adminOnly(200),
    request: async (c) => ({
      method: 'PUT',
      url: `/api/admin/risk/pairs/${await c.fx.newPair()}`,
      payload: {
        exposure_cap_up: 1_000,
        exposure_cap_down: null,
        skew_max_pct: 5,
        skew_full_at: 500,
        loss_limit: null,
        loss_window_min: 60,
      },
    }),
  },
  // A pair never suspended: the admin gets as far as the refusal to resume it.
  'POST /api/admin/risk/pairs/:symbol/resume': {
    expect: adminOnly(409),
    request: async (c) => ({ method: 'POST', url: `/api/admin/risk/pairs/${await c.fx.newPair()}/resume` }),
  },
  'PUT /api/admin/risk/traders': {
    expect: adminOnly(200),
    request: () => ({
      method: 'PUT',
      url: '/api/admin/risk/traders',
      payload: { max_open_stake: null, max_open_trades: null },
    }),
  },
  'PUT /api/admin/users/:id/limits': {
    expect: adminOnly(200),
    request: (c) => ({
      method: 'PUT',
      url: `/api/admin/users/${c.fx.principals.owner.id}/limits`,
      payload: { max_open_stake: 500, max_open_trades: 10 },
    }),
  },
  'GET /api/admin/settings': { expect: adminOnly(200), request: () => get('/api/admin/settings') },
  'POST /api/admin/settings': {
    expect: adminOnly(200),
    request: () => ({ method: 'POST', url: '/api/admin/settings', payload: {} }),
  },
  'GET /api/admin/deposits': { expect: adminOnly(200), request: () => get('/api/admin/deposits') },
  'POST /api/admin/deposits/:id': {
    expect: adminOnly(200),
    request: async (c) => ({
      method: 'POST',
      url: `/api/admin/deposits/${await c.fx.pendingDeposit()}`,
      payload: { action: 'approve' },
    }),
  },
  'GET /api/admin/withdrawals': { expect: adminOnly(200), request: () => get('/api/admin/withdrawals') },
  'POST /api/admin/withdrawals/:id': {
    expect: adminOnly(200),
    request: async (c) => ({
      method: 'POST',
      url: `/api/admin/withdrawals/${await c.fx.pendingWithdrawal()}`,
      payload: { action: 'reject' },
    }),
  },

  'GET /api/admin/disputes': {
    expect: adminOnly(200),
    request: () => get('/api/admin/disputes?status=open'),
  },
  // No such dispute: an admin gets 404 only after the guard let them through.
  'POST /api/admin/disputes/:id/resolve': {
    expect: adminOnly(404),
    request: () => ({
      method: 'POST',
      url: '/api/admin/disputes/00000000-0000-4000-8000-000000000000/resolve',
      payload: { decision: 'confirm', note: 'Checked' },
    }),
  },

  // Leaderboard: the board is public, a position is one's own (or anyone's for an admin).
  'GET /api/leaderboard/daily': { expect: everyone(200), request: () => get('/api/leaderboard/daily') },
  'GET /api/leaderboard/daily/position/:user_id': {
    expect: ownerOrAdmin(200, 403),
    request: (c) => get(`/api/leaderboard/daily/position/${c.fx.principals.owner.id}`),
  },
};

function withRefreshToken(url: string, token: string | undefined): string {
  return token === undefined ? url : `${url}?refresh_token=${encodeURIComponent(token)}`;
}

/** Whether a concrete request path is one the route pattern (`:param`, `*`) answers. */
export function matchesRoute(pattern: string, url: string): boolean {
  if (pattern === '*') return true;
  const pathname = url.split('?')[0] ?? url;
  const source = pattern
    .split('/')
    .map((part) =>
      part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`).test(pathname);
}

/**
 * Registered routes without an entry (`missing`) and entries no registered route answers to
 * (`stale`), both as `METHOD url`.
 */
export function matrixGaps(
  registered: readonly { readonly method: string; readonly url: string }[],
  table: Readonly<Record<string, unknown>>,
): { missing: string[]; stale: string[] } {
  const keys = new Set(registered.map((route) => `${route.method} ${route.url}`));
  return {
    missing: [...keys].filter((key) => !Object.hasOwn(table, key)),
    stale: Object.keys(table).filter((key) => !keys.has(key)),
  };
}
