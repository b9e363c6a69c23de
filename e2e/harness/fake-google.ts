import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

/** The OAuth client id the platform under test accepts Google ID tokens for. */
export const FAKE_GOOGLE_CLIENT_ID = 'updown-e2e.apps.googleusercontent.com';
const KEY_ID = 'e2e-google-key';
/** Long enough for any journey; Google's own ID tokens last an hour too. */
const ID_TOKEN_TTL_SEC = 3600;

/** One Google account: the subject stays the same across sign-ins, as Google's does. */
export interface GoogleAccount {
  readonly sub: string;
  readonly email: string;
  readonly name: string;
}

/**
 * A stand-in for Google's side of "Continue with Google": its key set served on loopback (the
 * platform's `GOOGLE_JWKS_URL`) and ID tokens signed with the matching key, as Google's OAuth page
 * hands them back to the console.
 */
export class FakeGoogle {
  private constructor(
    private readonly server: Server,
    private readonly signingKey: KeyObject,
    /** The key set's address, for the platform's `GOOGLE_JWKS_URL`. */
    readonly jwksUrl: string,
  ) {}

  static async start(): Promise<FakeGoogle> {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: KEY_ID, alg: 'RS256', use: 'sig' };
    const body = JSON.stringify({ keys: [jwk] });
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new FakeGoogle(server, privateKey, `http://127.0.0.1:${port}/oauth2/v3/certs`);
  }

  /** The platform configuration that trusts this Google. */
  env(): Record<string, string> {
    return { GOOGLE_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: this.jwksUrl };
  }

  /** A Google account nobody has signed in with yet. */
  static newAccount(label: string): GoogleAccount {
    const id = randomBytes(4).toString('hex');
    return {
      sub: `1${BigInt(`0x${id}`).toString().padStart(10, '0')}`,
      email: `${label.toLowerCase()}-${id}@gmail.com`,
      name: `${label} ${id}`,
    };
  }

  /**
   * An RS256-signed ID token for `account`, issued at `nowMs` (the platform's clock, which checks
   * its expiry). Signed with node:crypto: the claims and header are all a verifier reads.
   */
  idToken(account: GoogleAccount, nowMs: number): string {
    const nowSec = Math.floor(nowMs / 1000);
    const header = { alg: 'RS256', kid: KEY_ID, typ: 'JWT' };
    const claims = {
      iss: 'https://accounts.google.com',
      aud: FAKE_GOOGLE_CLIENT_ID,
      sub: account.sub,
      email: account.email,
      email_verified: true,
      name: account.name,
      iat: nowSec,
      exp: nowSec + ID_TOKEN_TTL_SEC,
    };
    const signed = [header, claims].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'));
    const signature = sign('sha256', Buffer.from(signed.join('.')), this.signingKey).toString('base64url');
    return `${signed.join('.')}.${signature}`;
  }

  /**
   * Comes back to the console from Google's OAuth page signed in as `account`: a full page load of
   * `/auth#id_token=…`, the address Google redirects to. Resolves once the console lands on /trade.
   */
  async signIn(page: Page, account: GoogleAccount, nowMs: number): Promise<void> {
    const token = this.idToken(account, nowMs);
    // A hash change alone would not reload the auth page, and the page reads the token on load.
    await page.goto('about:blank');
    await page.goto(`/auth#id_token=${token}`);
    await page.waitForURL((url) => url.pathname === '/trade');
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
