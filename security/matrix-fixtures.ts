import { randomBytes } from 'node:crypto';
import { signIn, type Session } from '@updown/api-client';
import { createLogger, OffsetClock, type Logger } from '@updown/runtime';
import { hashRefreshToken } from '@updown/accounts/testing';
import { startInProcessPlatform, type RunningPlatform } from '@updown/platform/testing';
import type { Schemas } from '@updown/schemas/openapi';
import { clearForWithdrawals } from '@updown/wallet/testing';
import { PlatformApi, signHs256, type Identity, type TotpAccount } from './platform-api';

export { signHs256, type Identity } from './platform-api';

/**
 * The whole platform in this process with real accounts and tokens for the authorization matrix:
 * an owner (user A) whose resources the other user (B) reaches for, an admin, a user with
 * two-factor on (C), and the broken credentials derived from them.
 */

export const PAIR = 'BTCUSDT';
const ADMIN_EMAIL = 'matrix.admin@example.com';
const ADMIN_PASSWORD = `Admin-${randomBytes(6).toString('hex')}`;
/** Long enough that the minutes the TOTP steps move the clock never expire a principal's token. */
const ACCESS_TOKEN_TTL_SEC = 3600;
/** The temporary token lives 5 minutes; one older than this (on the platform clock) is replaced. */
const TEMPORARY_TOKEN_AGE_MS_MAX = 3 * 60_000;
const PRICE_WAIT_MS_MAX = 30_000;

export interface Principals {
  /** User A: owns the trade and the leaderboard entry "other user" asks for. */
  readonly owner: Identity;
  /** User B. */
  readonly other: Identity;
  readonly admin: Identity;
  /** User C, with two-factor on. */
  readonly twoFactor: Identity & { readonly totp: TotpAccount };
  /** A's trade. */
  readonly tradeId: string;
  /** A's refresh token after logout. */
  readonly revokedRefreshToken: string;
  /** A session of A that logged out: its access token (unexpired) and its refresh token. */
  readonly endedSession: Session;
  /** A's refresh token whose expiry has passed. */
  readonly expiredRefreshToken: string;
}

/** The claims of a JWT (or of its payload part alone), unverified: for minting look-alikes. */
export function tokenClaims(token: string, payloadOnly = false): Record<string, unknown> {
  const payload = payloadOnly ? token : (token.split('.')[1] ?? '');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The platform with every principal built, and the resources single cases make for themselves. */
export class MatrixFixtures extends PlatformApi {
  private temporary: { token: string; issuedAt: number } | undefined;
  private pairs = 0;

  constructor(
    platform: RunningPlatform,
    clock: OffsetClock,
    readonly principals: Principals,
    /** The key tokens are signed with, to mint the expired one (and to look for in logs). */
    readonly jwtSecret: string,
    private readonly stopAll: () => Promise<void>,
  ) {
    super(platform, clock);
  }

  /** A correctly signed access token of A whose expiry passed a minute ago on the platform clock. */
  expiredAccessToken(): string {
    const now = Math.floor(this.clock.nowMs() / 1000);
    const { sid } = tokenClaims(this.principals.owner.accessToken);
    const claims = { sub: this.principals.owner.id, role: 'user', typ: 'access', sid, iss: 'updown' };
    return signHs256(this.jwtSecret, { ...claims, iat: now - 960, exp: now - 60 });
  }

  /** A's real access token with the role in its payload changed to admin; the signature is kept. */
  tamperedAccessToken(): string {
    const [header, payload, signature] = this.principals.owner.accessToken.split('.') as [
      string,
      string,
      string,
    ];
    const forged = Buffer.from(JSON.stringify({ ...tokenClaims(payload, true), role: 'admin' })).toString(
      'base64url',
    );
    return `${header}.${forged}.${signature}`;
  }

  /** Signs `account` in once more and answers the new session's id (its access token's `sid`). */
  async secondSessionOf(account: { email: string; password: string }): Promise<string> {
    const { accessToken } = await signIn(this.api, account);
    return String(tokenClaims(accessToken).sid);
  }

  /** A live refresh token of A with one character changed. */
  async tamperedRefreshToken(): Promise<string> {
    const token = await this.freshRefreshToken(this.principals.owner);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    return `${token.slice(0, -1)}${last}`;
  }

  /** C's temporary token from a password login, replaced before it nears its 5-minute expiry. */
  async temporaryToken(): Promise<string> {
    const now = this.clock.nowMs();
    if (this.temporary === undefined || now - this.temporary.issuedAt > TEMPORARY_TOKEN_AGE_MS_MAX) {
      const body = await this.login(this.principals.twoFactor);
      if (!body.requires_2fa) throw new Error('the two-factor user signed in without a second factor');
      this.temporary = { token: body.access_token, issuedAt: now };
    }
    return this.temporary.token;
  }

  /** A pair added by the admin for a case of its own (nothing trades on it). */
  async newPair(): Promise<string> {
    this.pairs += 1;
    const symbol = `MX${this.pairs}${randomBytes(2).toString('hex').toUpperCase()}`;
    await this.api.post(
      '/api/admin/pairs',
      { symbol, display_name: symbol },
      { token: this.principals.admin.accessToken },
    );
    return symbol;
  }

  /** A pending deposit of A, made while approval is required. */
  async pendingDeposit(): Promise<string> {
    const settings = (flag: boolean) =>
      this.api.post(
        '/api/admin/settings',
        { require_deposit_approval: flag },
        { token: this.principals.admin.accessToken },
      );
    await settings(true);
    try {
      const { request } = await this.deposit(this.principals.owner, 10);
      if (!request) throw new Error('the deposit made while approval is required has no request');
      return request.id;
    } finally {
      await settings(false);
    }
  }

  /** A pending withdrawal of A. */
  async pendingWithdrawal(): Promise<string> {
    await this.deposit(this.principals.owner, 10);
    const { request } = await this.api.post(
      '/api/wallet/withdraw',
      { amount: 5, account_type: 'real' },
      { token: this.principals.owner.accessToken },
    );
    if (!request) throw new Error('a withdrawal answered without its request');
    return request.id;
  }

  /** A document of A (the owner), uploaded once. */
  async ownerDocument(): Promise<string> {
    this.ownerDocumentId ??= await this.uploadDocument(this.principals.owner, 'photo_id');
    return this.ownerDocumentId;
  }
  private ownerDocumentId: string | undefined;

  /** Stops the platform and drops its database. */
  stop(): Promise<void> {
    return this.stopAll();
  }
}

export interface MatrixOptions {
  /** Defaults to a silent logger; the log-hygiene test passes one that keeps every line. */
  readonly logger?: Logger;
  /** Defaults to a directory with no build, so the placeholder page is the console. */
  readonly consoleDir?: string;
}

/** Starts the platform on a fresh database and builds every principal through the API. */
export async function startMatrixFixtures(options: MatrixOptions = {}): Promise<MatrixFixtures> {
  const clock = new OffsetClock();
  const started = await startInProcessPlatform({
    clock,
    name: 'authz',
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    env: {
      ...(options.consoleDir ? { CONSOLE_DIR: options.consoleDir } : {}),
      ACCESS_TOKEN_TTL_SEC: String(ACCESS_TOKEN_TTL_SEC),
      // The matrix sends a few hundred auth requests from one address; the ceiling has its own test.
      AUTH_IP_RATE_MAX: '100000',
    },
    logger: options.logger ?? createLogger({ level: 'silent', name: 'updown-authz' }),
  });
  try {
    return await buildPrincipals(started.platform, clock, started.jwtSecret, () => started.stop());
  } catch (error) {
    await started.stop();
    throw error;
  }
}

async function buildPrincipals(
  platform: RunningPlatform,
  clock: OffsetClock,
  jwtSecret: string,
  stopAll: () => Promise<void>,
): Promise<MatrixFixtures> {
  const setUp = new PlatformApi(platform, clock);
  const owner = await setUp.freshUser('owner');
  const other = await setUp.freshUser('other');
  const credentials = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };
  const { accessToken } = await signIn(setUp.api, credentials);
  const me = await setUp.api.get('/api/auth/me', { token: accessToken });
  const admin = { id: me.id, ...credentials, accessToken };
  // Withdrawals need a verified identity; the matrix asks who may call, not whether they are verified.
  for (const identity of [owner, other, admin]) await clearForWithdrawals(platform.database.db, identity.id);
  const withTwoFactor = await setUp.freshUser('two-factor');
  const totp = await setUp.enableTwoFactor(withTwoFactor);

  const revokedRefreshToken = await setUp.freshRefreshToken(owner);
  await setUp.api.post('/api/auth/logout', undefined, { query: { refresh_token: revokedRefreshToken } });
  const endedSession = await signIn(setUp.api, owner);
  await setUp.api.post('/api/auth/logout', { refresh_token: endedSession.refreshToken });
  const expiredRefreshToken = await setUp.freshRefreshToken(owner);
  await platform.database.db
    .updateTable('refresh_tokens')
    .set({ expires_at: new Date(clock.nowMs() - 60_000) })
    .where('token_hash', '=', hashRefreshToken(expiredRefreshToken))
    .execute();

  const principals: Principals = {
    owner,
    other,
    admin,
    twoFactor: { ...withTwoFactor, totp },
    tradeId: await placeFirstTrade(setUp, owner),
    revokedRefreshToken,
    endedSession,
    expiredRefreshToken,
  };
  return new MatrixFixtures(platform, clock, principals, jwtSecret, stopAll);
}

/** A's trade; placement waits for the feed's first price, which can take a moment after start. */
async function placeFirstTrade(fx: PlatformApi, owner: Identity): Promise<string> {
  const deadline = Date.now() + PRICE_WAIT_MS_MAX;
  for (;;) {
    const placed = await fx.api.send(
      'post',
      '/api/trades/place',
      // The matrix asks of this trade as an open one: an hour outlasts any run of it.
      { ...PLACE_TRADE_BODY, duration: 3600 },
      { token: owner.accessToken },
    );
    if (placed.status === 201) return placed.body!.id;
    if (Date.now() > deadline) throw new Error(`no trade could be placed: ${placed.status} ${placed.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const PLACE_TRADE_BODY: Schemas['PlaceTradeBody'] = {
  pair: PAIR,
  direction: 'UP',
  amount: 1,
  duration: 60,
  account_type: 'demo',
};
