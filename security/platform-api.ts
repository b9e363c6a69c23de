import { createHmac } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { ApiClient, injectTransport, newUser, signIn, signUp } from '@updown/api-client';
import type { OffsetClock } from '@updown/runtime';
import { ownDocumentForm, setRole } from '@updown/accounts/testing';
import { TOTP_STEP_MS, type RunningPlatform } from '@updown/platform/testing';
import type { Schemas } from '@updown/schemas/openapi';

export const IDENTITY_DETAILS = { full_name: 'Matrix Trader', date_of_birth: '1990-01-01' } as const;

/** A code is generated this far from a step boundary, so the server sees the step the code is for. */
const TOTP_MARGIN_MS = 8_000;

export interface Identity {
  readonly id: string;
  readonly email: string;
  readonly password: string;
  readonly accessToken: string;
}

/** A TOTP secret and the last time step spent with it (the server refuses a step twice). */
export interface TotpAccount {
  readonly secret: string;
  lastStep: number;
}

/**
 * The platform running in this process, called through the shared API client over Fastify's
 * inject: the set-up the matrix fixtures and the hardening tests are made of, with what is the
 * security suite's own (codes that never spend a step twice, an admin made in the database).
 */
export class PlatformApi {
  /** Typed calls into the gateway in this process. */
  readonly api: ApiClient;

  constructor(
    readonly platform: RunningPlatform,
    readonly clock: OffsetClock,
  ) {
    this.api = new ApiClient(injectTransport(platform.gateway.app));
  }

  get port(): number {
    return this.platform.gateway.port;
  }

  /**
   * A request the client cannot send: an OPTIONS preflight, a client address of the test's
   * choosing, cookies sent and read back.
   */
  inject(options: InjectOptions): Promise<LightMyRequestResponse> {
    return this.platform.gateway.app.inject(options);
  }

  freshUser(label = 'fresh'): Promise<Identity> {
    return signUp(this.api, newUser(label));
  }

  /** Uploads one identity document of the caller's own; answers its id. */
  async uploadDocument(identity: Identity, kind: 'photo_id' | 'proof_of_address'): Promise<string> {
    const upload = ownDocumentForm(identity.id, kind);
    return (await this.api.post('/api/identity/documents', upload, { token: identity.accessToken })).id;
  }

  /** A new account's identity submission, pending; answers its id. */
  async pendingVerification(): Promise<string> {
    const trader = await this.freshUser('kyc');
    await this.uploadDocument(trader, 'photo_id');
    await this.uploadDocument(trader, 'proof_of_address');
    await this.api.post('/api/identity/submit', IDENTITY_DETAILS, { token: trader.accessToken });
    const row = await this.platform.database.db
      .selectFrom('identity_submissions')
      .select('id')
      .where('user_id', '=', trader.id)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async freshAdmin(): Promise<Identity> {
    const user = await this.freshUser('fresh-admin');
    await setRole(this.platform.database.db, user.id, 'admin', new Date(this.clock.nowMs()));
    // Signed in again so the token carries the admin role, as a real admin's does.
    return { ...user, accessToken: (await signIn(this.api, user)).accessToken };
  }

  /** The login's own answer: with two-factor on, the temporary token and `requires_2fa`. */
  login(account: { email: string; password: string }): Promise<Schemas['LoginResponse']> {
    return this.api.post('/api/auth/login', { email: account.email, password: account.password });
  }

  /** A new live refresh token of the account: refresh and logout spend the one they are given. */
  async freshRefreshToken(account: { email: string; password: string }): Promise<string> {
    return (await signIn(this.api, account)).refreshToken;
  }

  /**
   * A code of `account` for a time step it has not spent: the step before the current one, the
   * current one or the next (the server accepts one step either side), moving the platform clock
   * on when all three are spent or the current step is about to end.
   */
  async totpCode(account: TotpAccount): Promise<string> {
    const into = this.clock.nowMs() % TOTP_STEP_MS;
    if (into < TOTP_MARGIN_MS) this.clock.advance(TOTP_MARGIN_MS - into);
    else if (into > TOTP_STEP_MS - TOTP_MARGIN_MS) this.clock.advance(TOTP_STEP_MS - into + TOTP_MARGIN_MS);
    let current = Math.floor(this.clock.nowMs() / TOTP_STEP_MS);
    const step = Math.max(current - 1, account.lastStep + 1);
    if (step > current + 1) {
      this.clock.advance((step - 1 - current) * TOTP_STEP_MS);
      current = step - 1;
    }
    account.lastStep = step;
    return generate({ secret: account.secret, epoch: (step * TOTP_STEP_MS) / 1000 });
  }

  /** Starts two-factor setup for the account (the password is the step-up); answers its secret. */
  async setUpTwoFactor(account: Identity): Promise<TotpAccount> {
    const { secret } = await this.api.post(
      '/api/2fa/setup',
      { password: account.password },
      { token: account.accessToken },
    );
    return { secret, lastStep: Number.NEGATIVE_INFINITY };
  }

  async enableTwoFactor(account: Identity): Promise<TotpAccount> {
    const totp = await this.setUpTwoFactor(account);
    await this.api.post(
      '/api/2fa/enable',
      { token: await this.totpCode(totp) },
      { token: account.accessToken },
    );
    return totp;
  }

  deposit(account: Identity, amount: number): Promise<Schemas['WalletCommandResponse']> {
    return this.api.post(
      '/api/wallet/deposit',
      { amount, account_type: 'real' },
      { token: account.accessToken },
    );
  }
}

/** An HS256 JWT, as `@fastify/jwt` signs them: what an attacker holding the key could mint. */
export function signHs256(secret: string, claims: Record<string, unknown>): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
