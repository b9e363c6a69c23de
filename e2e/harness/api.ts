import { randomBytes } from 'node:crypto';
import { pdfBytes } from '@updown/gateway/testing';
import type {
  LoginResponse,
  PaymentRequest,
  Trade,
  UserResponse,
  WalletCommandResponse,
  WalletResponse,
} from '@updown/schemas/api';

/** The fields of `GET /api/trades/active` the journeys read. */
export type ActiveTrade = Pick<
  Trade,
  'id' | 'pair' | 'direction' | 'amount' | 'account_type' | 'expiry_ts' | 'status'
>;

export interface TestUser {
  readonly name: string;
  readonly email: string;
  readonly password: string;
}

/** A user nobody has registered yet: each journey gets its own account. */
export function newUser(label: string): TestUser {
  const id = randomBytes(4).toString('hex');
  return {
    name: `${label} ${id}`,
    email: `${label.toLowerCase()}-${id}@example.com`,
    password: 'Trader-pass-123',
  };
}

/**
 * The platform's HTTP API, for the set-up a journey is not about (an account, a deposit) and for
 * checking what the browser showed against what the server holds.
 */
export class ApiClient {
  constructor(private readonly baseUrl: string) {}

  async request<T>(
    method: string,
    url: string,
    options: { token?: string; body?: unknown } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  async register(user: TestUser): Promise<void> {
    await this.request('POST', '/api/auth/register', { body: user });
  }

  /** Registers `user` and signs in; returns the access token. */
  async signUp(user: TestUser): Promise<string> {
    await this.register(user);
    return this.login(user.email, user.password);
  }

  /** Signs in without a second factor and returns the access token. */
  async login(email: string, password: string): Promise<string> {
    return (await this.loginTokens(email, password)).access_token;
  }

  /** Signs in without a second factor and returns both tokens, as the console stores them. */
  async loginTokens(email: string, password: string): Promise<LoginResponse> {
    const response = await this.request<LoginResponse>('POST', '/api/auth/login', {
      body: { email, password },
    });
    if (response.requires_2fa) throw new Error(`${email} needs a second factor to sign in`);
    return response;
  }

  me(token: string): Promise<UserResponse> {
    return this.request('GET', '/api/auth/me', { token });
  }

  wallet(token: string): Promise<WalletResponse> {
    return this.request('GET', '/api/wallet', { token });
  }

  deposit(token: string, amount: number, accountType: 'real' | 'demo'): Promise<WalletCommandResponse> {
    return this.request('POST', '/api/wallet/deposit', {
      token,
      body: { amount, account_type: accountType },
    });
  }

  withdraw(token: string, amount: number, accountType: 'real' | 'demo'): Promise<WalletCommandResponse> {
    return this.request('POST', '/api/wallet/withdraw', {
      token,
      body: { amount, account_type: accountType },
    });
  }

  activeTrades(token: string): Promise<ActiveTrade[]> {
    return this.request('GET', '/api/trades/active', { token });
  }

  tradeHistory(token: string): Promise<Trade[]> {
    return this.request('GET', '/api/trades/history?limit=20', { token });
  }

  /** Uploads an identity document as the console does (multipart: the kind, then the file). */
  async uploadDocument(
    token: string,
    kind: 'photo_id' | 'proof_of_address',
    bytes: Buffer,
    filename: string,
  ) {
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', new Blob([Uint8Array.from(bytes)]), filename);
    const response = await fetch(`${this.baseUrl}/api/identity/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`uploading ${kind} answered ${response.status}: ${text}`);
    return JSON.parse(text) as { id: string };
  }

  /**
   * Set-up for a journey that is not about verification: the trader's identity verified through
   * the API (two documents of their own, a submission, an admin's approval), so withdrawals open.
   */
  async verifyIdentity(token: string, adminToken: string, fullName: string): Promise<void> {
    const me = await this.me(token);
    for (const kind of ['photo_id', 'proof_of_address'] as const) {
      const pdf = Buffer.concat([pdfBytes(1), Buffer.from(`% ${kind} of ${me.id}\n`)]);
      await this.uploadDocument(token, kind, pdf, `${kind}.pdf`);
    }
    await this.request('POST', '/api/identity/submit', {
      token,
      body: { full_name: fullName, date_of_birth: '1990-01-01' },
    });
    const queue = await this.request<{ id: string; user_id: string }[]>('GET', '/api/admin/verifications', {
      token: adminToken,
    });
    const submission = queue.find((s) => s.user_id === me.id);
    if (!submission) throw new Error(`no pending verification of ${me.id}`);
    await this.request('POST', `/api/admin/verifications/${submission.id}`, {
      token: adminToken,
      body: { action: 'approve' },
    });
  }

  adminWithdrawals(token: string): Promise<PaymentRequest[]> {
    return this.request('GET', '/api/admin/withdrawals', { token });
  }
}
