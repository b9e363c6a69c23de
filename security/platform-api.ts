import { createHmac, randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import type { OffsetClock } from '@updown/runtime';
import { clearForWithdrawals, multipartUpload, pdfBytes, setRole } from '@updown/gateway/testing';
import { TOTP_STEP_MS, type RunningPlatform } from '@updown/platform/testing';

export const IDENTITY_DETAILS = { full_name: 'Matrix Trader', date_of_birth: '1990-01-01' } as const;

/** The multipart upload of a document only this account has. */
export function ownDocumentUpload(userId: string, kind: string) {
  const bytes = Buffer.concat([pdfBytes(1), Buffer.from(`% ${kind} of ${userId}\n`)]);
  return multipartUpload(kind, { bytes, filename: `${kind}.pdf`, contentType: 'application/pdf' });
}

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
 * Requests against the platform running in this process, as a client of its API sends them: the
 * primitives the matrix fixtures and the hardening tests are made of.
 */
export class PlatformApi {
  constructor(
    readonly platform: RunningPlatform,
    readonly clock: OffsetClock,
  ) {}

  get port(): number {
    return this.platform.gateway.port;
  }

  inject(options: InjectOptions): Promise<LightMyRequestResponse> {
    return this.platform.gateway.app.inject(options);
  }

  /** A set-up request that must succeed; answers its JSON body. */
  async call<T = Record<string, unknown>>(
    method: InjectOptions['method'],
    url: string,
    token?: string,
    payload?: object,
  ): Promise<T> {
    const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
    const res = await this.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`set-up ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json<T>();
  }

  async freshUser(prefix = 'fresh'): Promise<Identity> {
    const account = newAccount(prefix);
    const { id } = await this.call<{ id: string }>('POST', '/api/auth/register', undefined, account);
    return { id, ...account, accessToken: (await this.login(account)).access_token };
  }

  /** Set-up for a test that is not about verification: the account's withdrawals open. */
  async clearForWithdrawals(identity: Identity): Promise<void> {
    await clearForWithdrawals(this.platform.database.db, identity.id);
  }

  /** Uploads one identity document of the caller's own (a PDF no other account sends); answers its id. */
  async uploadDocument(identity: Identity, kind: 'photo_id' | 'proof_of_address'): Promise<string> {
    const upload = ownDocumentUpload(identity.id, kind);
    const res = await this.inject({
      method: 'POST',
      url: '/api/identity/documents',
      headers: { authorization: `Bearer ${identity.accessToken}`, ...upload.headers },
      payload: upload.payload,
    });
    if (res.statusCode !== 201) throw new Error(`set-up upload ${kind}: ${res.statusCode} ${res.body}`);
    return res.json<{ id: string }>().id;
  }

  /** A new account's identity submission, pending; answers its id. */
  async pendingVerification(): Promise<string> {
    const trader = await this.freshUser('kyc');
    await this.uploadDocument(trader, 'photo_id');
    await this.uploadDocument(trader, 'proof_of_address');
    await this.call('POST', '/api/identity/submit', trader.accessToken, IDENTITY_DETAILS);
    const row = await this.platform.database.db
      .selectFrom('identity_submissions')
      .select('id')
      .where('user_id', '=', trader.id)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async freshAdmin(): Promise<Identity> {
    const user = await this.freshUser('fresh-admin');
    await setRole(this.platform.database.db, user.id, 'admin', new Date(this.clock.now()));
    // Signed in again so the token carries the admin role, as a real admin's does.
    return { ...user, accessToken: (await this.login(user)).access_token };
  }

  login(account: { email: string; password: string }): Promise<LoginBody> {
    return this.call<LoginBody>('POST', '/api/auth/login', undefined, {
      email: account.email,
      password: account.password,
    });
  }

  /** A new live refresh token of the account: refresh and logout spend the one they are given. */
  async freshRefreshToken(account: { email: string; password: string }): Promise<string> {
    return (await this.login(account)).refresh_token;
  }

  /**
   * A code of `account` for a time step it has not spent: the step before the current one, the
   * current one or the next (the server accepts one step either side), moving the platform clock
   * on when all three are spent or the current step is about to end.
   */
  async totpCode(account: TotpAccount): Promise<string> {
    const into = this.clock.now() % TOTP_STEP_MS;
    if (into < TOTP_MARGIN_MS) this.clock.advance(TOTP_MARGIN_MS - into);
    else if (into > TOTP_STEP_MS - TOTP_MARGIN_MS) this.clock.advance(TOTP_STEP_MS - into + TOTP_MARGIN_MS);
    let current = Math.floor(this.clock.now() / TOTP_STEP_MS);
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
    const { secret } = await this.call<{ secret: string }>('POST', '/api/2fa/setup', account.accessToken, {
      password: account.password,
    });
    return { secret, lastStep: Number.NEGATIVE_INFINITY };
  }

  async enableTwoFactor(account: Identity): Promise<TotpAccount> {
    const totp = await this.setUpTwoFactor(account);
    await this.call('POST', '/api/2fa/enable', account.accessToken, { token: await this.totpCode(totp) });
    return totp;
  }

  async deposit(account: Identity, amount: number): Promise<{ request: { id: string } | null }> {
    return this.call('POST', '/api/wallet/deposit', account.accessToken, { amount, account_type: 'real' });
  }
}

export interface LoginBody {
  access_token: string;
  refresh_token: string;
  requires_2fa: boolean;
}

let accounts = 0;

export function newAccount(prefix: string): { name: string; email: string; password: string } {
  accounts += 1;
  return {
    name: `Matrix ${prefix} ${accounts}`,
    email: `${prefix}.${accounts}.${randomBytes(3).toString('hex')}@example.com`,
    password: `pw-${randomBytes(8).toString('hex')}`,
  };
}

/** An HS256 JWT, as `@fastify/jwt` signs them: what an attacker holding the key could mint. */
export function signHs256(secret: string, claims: Record<string, unknown>): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
