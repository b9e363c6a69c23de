import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@updown/runtime';
import { ApiClient, injectTransport } from '@updown/api-client';
import { waitFor } from '@updown/runtime/testing';
import { registeredRoutes } from '@updown/gateway';
import {
  HOSTILE_STRINGS,
  requestArbitrary,
  summarize,
  type FieldHints,
  type FuzzRequest,
  type FuzzTarget,
} from '@updown/schemas/testing';
import { fuzzTargets } from './fuzz/targets';
import { fieldHints, identities, startEmptyJwksServer, type Identities } from './fuzz/fixtures';
import {
  ledgerSnapshot,
  startSecurityPlatform,
  type LedgerSnapshot,
  type SecurityPlatform,
} from './fuzz/platform';

/**
 * Every JSON route of the whole platform, fed values generated from its own TypeBox schemas and
 * hostile mutations of them, as an admin and as a plain user. Whatever comes in: no 5xx, every
 * refusal is `{detail}` JSON and leaves the ledger exactly as it was, JSON is labelled as JSON, and
 * no response carries a raw `<script` (nor, as HTML, the markup that was sent).
 *
 * The platform runs on a manual clock that stands still once the feed has priced every pair, so
 * placed trades never expire and nothing but the request under test can move money.
 */
const LONG = process.env.UPDOWN_TEST_LONG === '1';
const RUNS_PER_ROUTE = LONG ? 1_500 : 40;
const SEED = process.env.CHAOS_SEED === undefined ? undefined : Number(process.env.CHAOS_SEED);

let security: SecurityPlatform;
let jwks: Awaited<ReturnType<typeof startEmptyJwksServer>>;
/** The hostile requests go as generated, through Fastify's inject: no client shapes them. */
let inject: (request: InjectOptions) => Promise<LightMyRequestResponse>;
let tokens: Identities;
let hints: FieldHints = {};
let targets: FuzzTarget[] = [];
let inputs = 0;
let serverErrors = 0;
/** Generated requests answered 2xx: proof that inputs reach the handlers, not only validation. */
let accepted = 0;
let ledger: LedgerSnapshot;

const HTML_PAYLOADS = HOSTILE_STRINGS.filter((s) => s.includes('<'));

function describeRequest(request: FuzzRequest, role: string): string {
  return `${role} ${summarize(request)}`;
}

/** The checks every answer must pass, whatever was sent; `what` names the request in failures. */
async function checkAnswer(res: LightMyRequestResponse, what: string): Promise<void> {
  inputs++;
  if (res.statusCode >= 500) serverErrors++;
  expect(res.statusCode, `${what} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
  const type = String(res.headers['content-type'] ?? '');
  expect(res.body.toLowerCase(), what).not.toContain('<script');
  if (type.startsWith('text/html')) {
    for (const html of HTML_PAYLOADS) expect(res.body, what).not.toContain(html);
  }
  const looksJson = /^\s*[[{"]/.test(res.body);
  if (res.statusCode >= 400 || looksJson) {
    expect(type, `${what}: content-type`).toMatch(/^application\/json/);
  }
  const after = await ledgerSnapshot(security.platform);
  if (res.statusCode >= 400) {
    const body = res.json<{ detail?: unknown }>();
    expect(typeof body.detail, `${what}: detail of ${res.body.slice(0, 200)}`).toBe('string');
    expect(after, `${what}: ledger moved on a ${res.statusCode}`).toEqual(ledger);
  }
  ledger = after;
}

type Role = keyof Identities;

/**
 * Who sends a route's requests: an admin and a plain user, so requests reach validation and the
 * handlers; the second step of a 2FA sign-in only takes the temporary token of the first.
 */
function rolesFor(target: FuzzTarget): Role[] {
  return target.url === '/api/2fa/verify' ? ['pendingTwoFactor'] : ['admin', 'user'];
}

async function send(request: FuzzRequest, role: Role): Promise<void> {
  const res = await inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...request.headers, authorization: `Bearer ${tokens[role]}` },
    payload: request.payload,
  });
  if (res.statusCode < 300) accepted++;
  await checkAnswer(res, describeRequest(request, role));
}

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  jwks = await startEmptyJwksServer();
  security = await startSecurityPlatform(clock, {
    // The fuzzer sends thousands of auth requests from one address, with many wrong passwords and
    // 2FA codes, while the clock stands still: the sign-in throttle must not turn them into 429s.
    AUTH_IP_RATE_MAX: '100000',
    AUTH_FREE_FAILURES: '100',
    AUTH_ADDRESS_MAX_FAILURES: '1000000',
    AUTH_ACCOUNT_MAX_FAILURES: '1000000',
    GOOGLE_CLIENT_ID: 'fuzz.apps.googleusercontent.com',
    GOOGLE_JWKS_URL: jwks.url,
  });
  const app = security.platform.gateway.app;
  inject = (request) => app.inject(request);
  await pricedEveryPair(clock);
  const api = new ApiClient(injectTransport(app));
  const who = await identities(api, clock);
  tokens = who;
  hints = await fieldHints(api, who);
  targets = fuzzTargets(registeredRoutes(app));
  ledger = await ledgerSnapshot(security.platform);
}, 120_000);

/** Lets the simulated feed price every active pair, leaving the clock standing still after. */
async function pricedEveryPair(clock: ManualClock): Promise<void> {
  const db = security.platform.database.db;
  await waitFor(
    async () => {
      clock.advance(1_000);
      const row = await db
        .selectFrom('market_pairs')
        .select((eb) => eb.fn.countAll<string>().as('unpriced'))
        .where('active', '=', true)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('market_ticks')
                .select('pair')
                .whereRef('market_ticks.pair', '=', 'market_pairs.symbol'),
            ),
          ),
        )
        .executeTakeFirstOrThrow();
      return Number(row.unpriced) === 0;
    },
    { timeoutMs: 20_000, what: 'a tick for every pair' },
  );
}

afterAll(async () => {
  console.log(`fuzz: ${inputs} inputs over ${targets.length} routes, ${serverErrors} server errors`);
  await security?.stop();
  await jwks?.close();
});

describe('hostile input on every JSON route', () => {
  it('finds the routes to fuzz in the route table', () => {
    const names = targets.map((t) => `${t.method} ${t.url}`);
    // A sample that must be there; the table itself decides the rest.
    for (const route of ['POST /api/trades/place', 'POST /api/wallet/deposit', 'GET /api/market/candles']) {
      expect(names).toContain(route);
    }
    expect(targets.filter((t) => t.idempotent).length).toBeGreaterThanOrEqual(3);
  });

  it(
    'never answers 5xx, and refuses without moving money, to generated and mutated input',
    async () => {
      for (const target of targets) {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(target, hints), fc.constantFrom(...rolesFor(target)), send),
          { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
        );
      }
      expect(accepted, 'no generated request was accepted').toBeGreaterThan(0);
    },
    LONG ? 3_600_000 : 240_000,
  );

  it('answers an oversized body with 413 and a body near the limit with a 4xx', async () => {
    const limit = security.platform.config.BODY_LIMIT_BYTES;
    for (const target of targets.filter((t) => t.body)) {
      for (const size of [1_000_000, limit + 1]) {
        const field = Object.keys(target.body?.properties ?? { name: {} })[0]!;
        const payload = JSON.stringify({ [field]: 'x'.repeat(size) });
        const res = await inject({
          method: target.method as 'POST',
          url: target.url.replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000'),
          headers: {
            authorization: `Bearer ${tokens[rolesFor(target)[0]!]}`,
            'content-type': 'application/json',
          },
          payload,
        });
        await checkAnswer(res, `${target.method} ${target.url} with ${payload.length} bytes`);
        if (payload.length > limit) expect(res.statusCode).toBe(413);
        else expect(res.statusCode).toBeGreaterThanOrEqual(400);
      }
    }
  }, 120_000);

  it('refuses a body that is not JSON, or is sent with another content type', async () => {
    const bodies: Array<[string | undefined, string]> = [
      ['application/json', 'not json'],
      ['application/json', '{"amount": 10,}'],
      ['application/json', "{'amount': 10}"],
      ['application/json', '\u0000'],
      ['text/plain', '{"amount": 10}'],
      ['application/x-www-form-urlencoded', 'amount=10&account_type=real'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="amount"\r\n\r\n10\r\n--x--',
      ],
      ['application/xml', '<amount>10</amount>'],
      ['text/html', '<script>alert(1)</script>'],
      [undefined, '{"amount": 10}'],
    ];
    for (const target of targets.filter((t) => t.body)) {
      for (const [contentType, payload] of bodies) {
        const headers: Record<string, string> = {
          authorization: `Bearer ${tokens[rolesFor(target)[0]!]}`,
        };
        if (contentType) headers['content-type'] = contentType;
        const res = await inject({
          method: target.method as 'POST',
          url: target.url.replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000'),
          headers,
          payload,
        });
        await checkAnswer(res, `${target.method} ${target.url} as ${contentType}: ${payload.slice(0, 40)}`);
        expect(res.statusCode, `${target.url} ${contentType} ${payload}`).toBeGreaterThanOrEqual(400);
      }
    }
  }, 120_000);
});
