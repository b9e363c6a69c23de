import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '@updown/runtime/testing';
import { DEV_SERVICE_TOKEN } from '@updown/order';
import { startServiceProcess, type ServiceProcess } from '@updown/platform/testing';

/**
 * Every entry point, run as `npm start` / `npm run start:<service>` runs it, refuses to start in
 * production with a missing, short or placeholder secret, says which variable is wrong and never
 * prints the value. `auth.config.test.ts` covers the rules themselves and the gateway with a
 * short secret.
 */

const STRONG_SECRET = randomBytes(48).toString('base64url');
/**
 * Each entry point costs a Node process compiling the platform. The quick form (`npm test`) runs
 * the platform's three refusals; the full form (`--long`) adds the start with a strong secret and
 * the services started alone.
 */
const LONG = process.env.UPDOWN_TEST_LONG === '1';
/**
 * Production refuses the public default feed seed and /metrics on the public port; a set seed and
 * a metrics port of its own keep the JWT the only problem.
 */
const PRODUCTION = {
  UPDOWN_ENV: 'production',
  PRICE_FEED_SEED: '918273645',
  METRICS_PORT: '0',
  LOG_LEVEL: 'info',
};

/** An entry point that is expected to exit, or to be stopped; no listening address is awaited. */
function run(name: string, script: string, env: Record<string, string>): ServiceProcess {
  return startServiceProcess(name, script, env, 'never logged');
}

describe('the JWT secret in production, at every entry point', () => {
  const refusals: Array<[string, string | undefined, string]> = [
    ['missing', undefined, 'JWT_SECRET is required when UPDOWN_ENV=production'],
    ['short', 'x7Kp2QvL9m', 'JWT_SECRET must be at least 32 characters in production'],
    ['a placeholder', 'change-me-change-me-change-me-change-me', 'JWT_SECRET looks like a placeholder'],
  ];

  it('npm start refuses a missing, short or placeholder secret, says why and never echoes it', async () => {
    const children = refusals.map(([name, secret]) =>
      run(`platform, ${name} secret`, 'services/platform/src/main.ts', {
        ...PRODUCTION,
        ...(secret === undefined ? {} : { JWT_SECRET: secret }),
      }),
    );
    for (const [index, [name, secret, reason]] of refusals.entries()) {
      const child = children[index]!;
      expect(await child.exited, `${name}: ${child.output()}`).toBe(1);
      // The secret is the one problem named: the rest of this production configuration is valid.
      expect(child.output()).toMatch(
        new RegExp(`Invalid configuration:\\n {2}- ${reason}[^\\n]*\\n(?! {2}- )`),
      );
      if (secret !== undefined) expect(child.output()).not.toContain(secret);
    }
  }, 120_000);

  it.runIf(LONG)(
    'npm start comes up with a strong secret and the same configuration',
    async () => {
      const database = await createTestDatabase();
      const child = run('platform, strong secret', 'services/platform/src/main.ts', {
        ...PRODUCTION,
        JWT_SECRET: STRONG_SECRET,
        // Production needs its settlement signing key set too (a 32-byte seed, base64url).
        SIGNING_KEY: randomBytes(32).toString('base64url'),
        DATABASE_URL: database.url,
        PORT: '0',
      });
      try {
        await waitForOutput(child, 'Updown is up');
        expect(child.output()).not.toContain(STRONG_SECRET);
      } finally {
        await child.stop();
        await database.drop();
      }
    },
    120_000,
  );

  it.runIf(LONG)(
    'the gateway alone refuses a missing or placeholder secret',
    async () => {
      const serviceToken = { SERVICE_TOKEN: randomBytes(32).toString('base64url') };
      const missing = run('gateway, no secret', 'services/platform/src/gateway.main.ts', {
        ...PRODUCTION,
        ...serviceToken,
      });
      const placeholder = run('gateway, placeholder', 'services/platform/src/gateway.main.ts', {
        ...PRODUCTION,
        ...serviceToken,
        JWT_SECRET: 'my-super-secret-jwt-key-for-production-use',
      });
      expect(await missing.exited, missing.output()).toBe(1);
      expect(missing.output()).toContain('JWT_SECRET is required when UPDOWN_ENV=production');
      expect(await placeholder.exited, placeholder.output()).toBe(1);
      expect(placeholder.output()).toContain('JWT_SECRET looks like a placeholder');
      expect(placeholder.output()).not.toContain('my-super-secret-jwt-key-for-production-use');
    },
    120_000,
  );

  it.runIf(LONG)(
    'the order service, which checks the service token rather than user tokens, refuses the development one',
    async () => {
      const order = run('order, development token', 'services/order/src/main.ts', {
        ...PRODUCTION,
        SERVICE_TOKEN: DEV_SERVICE_TOKEN,
      });
      expect(await order.exited, order.output()).toBe(1);
      expect(order.output()).toContain(
        'SERVICE_TOKEN must be a secret of at least 32 characters in production',
      );
      expect(order.output()).not.toContain(DEV_SERVICE_TOKEN);
    },
    120_000,
  );
});

describe('/metrics in production', () => {
  it('npm start refuses to serve it on the public port with no token, and says how to fix it', async () => {
    const child = run('platform, /metrics open', 'services/platform/src/main.ts', {
      ...PRODUCTION,
      JWT_SECRET: STRONG_SECRET,
      METRICS_PORT: '',
    });
    expect(await child.exited, child.output()).toBe(1);
    expect(child.output()).toMatch(
      /Invalid configuration:\n {2}- METRICS_TOKEN or METRICS_PORT is required when UPDOWN_ENV=production[^\n]*\n(?! {2}- )/,
    );
    expect(child.output()).not.toContain(STRONG_SECRET);
  }, 120_000);
});

async function waitForOutput(child: ServiceProcess, text: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!child.output().includes(text)) {
    if (child.child.exitCode !== null) throw new Error(`${child.name} exited:\n${child.output()}`);
    if (Date.now() > deadline) throw new Error(`${child.name} never logged "${text}":\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
