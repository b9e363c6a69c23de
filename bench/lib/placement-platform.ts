import { randomBytes, randomUUID } from 'node:crypto';
import pMap from 'p-map';
import type { Kysely } from 'kysely';
import { ApiClient } from '@updown/api-client';
import type { Database } from '@updown/runtime';
import { PasswordHasher } from '@updown/accounts';
import { hashRefreshToken, insertRefreshToken, newRefreshToken } from '@updown/accounts/testing';
import { startPlatformProcess, type PlatformProcess } from '@updown/platform/testing';
import { benchEngineDir } from './engine-dir';
import { openAccount } from '@updown/gateway/testing';

export type PlatformChild = PlatformProcess;

/**
 * The platform under test as `npm start` runs it, in a child process: the load generator then has
 * its own event loop and cannot delay the server's (they still share the machine's cores), and the
 * memory benchmark measures the platform's RSS without its own. The console is never built (the
 * benchmark is about the API), and every token is minted from one address, so the per-IP ceiling
 * on auth routes is raised: it is not under test.
 */
export function startPlatformChild(options: {
  databaseUrl: string;
  extraEnv?: Readonly<Record<string, string>>;
  /** Extra flags for node, e.g. `--cpu-prof` to see where a placement spends its time. */
  nodeArgs?: readonly string[];
}): Promise<PlatformChild> {
  return startPlatformProcess({
    name: 'bench-platform',
    nodeArgs: options.nodeArgs,
    root: benchEngineDir(),
    env: {
      DATABASE_URL: options.databaseUrl,
      LOG_LEVEL: 'warn',
      AUTH_IP_RATE_MAX: '100000',
      ...options.extraEnv,
    },
  });
}

const SETUP_CONCURRENCY = 8;

/**
 * Creates `count` traders the way registration does (`openAccount`: user row, ledger accounts
 * and the demo grant as a ledger entry, in one transaction) and returns an access token for each,
 * minted by the running platform. Signing in with a password would spend ~100 ms of scrypt per
 * user, so each user gets a session row written directly and the token comes from
 * `POST /api/auth/refresh`, the platform's own signer.
 */
export async function createTraders(db: Kysely<Database>, baseUrl: string, count: number): Promise<string[]> {
  const passwordHash = await new PasswordHasher().hash(randomBytes(16).toString('hex'));
  const refreshTokens = new Array<string>(count);
  const now = Date.now();
  await pMap(
    refreshTokens,
    async (_, index) => {
      const user = await openAccount(db, {
        id: randomUUID(),
        email: `bench-trader-${index}@example.com`,
        name: `Bench trader ${index}`,
        role: 'user',
        passwordHash,
        createdAt: new Date(now),
      });
      const token = newRefreshToken();
      await insertRefreshToken(db, {
        id: randomUUID(),
        userId: user.id,
        familyId: randomUUID(),
        parentId: null,
        tokenHash: hashRefreshToken(token),
        createdAt: new Date(now),
        expiresAt: new Date(now + 3_600_000),
        clientBinding: null,
      });
      refreshTokens[index] = token;
    },
    { concurrency: SETUP_CONCURRENCY },
  );
  const api = new ApiClient(baseUrl);
  const accessTokens = new Array<string>(count);
  await pMap(
    refreshTokens,
    async (token, index) => {
      const refreshed = await api.post('/api/auth/refresh', { refresh_token: token });
      accessTokens[index] = refreshed.access_token;
    },
    { concurrency: SETUP_CONCURRENCY },
  );
  return accessTokens;
}
