import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { request } from 'undici';
import { freePort, type Database } from '@updown/runtime';
import { PasswordHasher } from '@updown/gateway';
import { createAccount } from '../../services/gateway/src/auth/accounts.handler';
import { insertRefreshToken } from '../../services/gateway/src/auth/sessions.repository';
import { hashRefreshToken, newRefreshToken } from '../../services/gateway/src/auth/tokens';

/**
 * The platform under test as `npm start` runs it, in a child process: the load generator then has
 * its own event loop and cannot delay the server's (they still share the machine's cores), and the
 * memory benchmark measures the platform's RSS without its own.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
/** The tail of the child's output kept for error messages. */
const OUTPUT_KEEP_CHARS = 8_000;

export interface PlatformChild {
  readonly baseUrl: string;
  readonly pid: number;
  /** The last lines it printed, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function startPlatformChild(options: {
  databaseUrl: string;
  extraEnv?: Readonly<Record<string, string>>;
  /** Extra flags for node, e.g. `--cpu-prof` to see where a placement spends its time. */
  nodeArgs?: readonly string[];
}): Promise<PlatformChild> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'updown-bench-platform-'));
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', 'services/platform/src/main.ts'],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        DATABASE_URL: options.databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        // Outside console/dist: the console is never built, the benchmark is about the API.
        CONSOLE_DIR: path.join(dataDir, 'no-console'),
        LOG_LEVEL: 'warn',
        JWT_SECRET: randomBytes(48).toString('base64url'),
        // Every token is minted from one address; the per-IP ceiling on auth routes is not under test.
        AUTH_IP_RATE_MAX: '100000',
        ...options.extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEEP_CHARS);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(baseUrl, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, pid: child.pid!, output: () => output, stop };
}

async function waitReady(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`platform exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await request(`${baseUrl}/readyz`);
      await response.body.dump();
      if (response.statusCode === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`platform not ready after ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

/** Runs `work` over `items` with at most `concurrency` at once. */
async function forEachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

const SETUP_CONCURRENCY = 8;

/**
 * Creates `count` traders the way registration does (`createAccount`: user row, ledger accounts
 * and the demo grant as a ledger entry, in one transaction) and returns an access token for each,
 * minted by the running platform. Signing in with a password would spend ~100 ms of scrypt per
 * user, so each user gets a session row written directly and the token comes from
 * `POST /api/auth/refresh`, the platform's own signer.
 */
export async function createTraders(db: Kysely<Database>, baseUrl: string, count: number): Promise<string[]> {
  const passwordHash = await new PasswordHasher().hash(randomBytes(16).toString('hex'));
  const refreshTokens = new Array<string>(count);
  const now = Date.now();
  await forEachLimited(refreshTokens, SETUP_CONCURRENCY, async (_, index) => {
    const user = await createAccount(db, {
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
    });
    refreshTokens[index] = token;
  });
  const accessTokens = new Array<string>(count);
  await forEachLimited(refreshTokens, SETUP_CONCURRENCY, async (token, index) => {
    const response = await request(`${baseUrl}/api/auth/refresh?refresh_token=${encodeURIComponent(token)}`, {
      method: 'POST',
    });
    const body = (await response.body.json()) as { access_token?: string };
    if (response.statusCode !== 200 || !body.access_token) {
      throw new Error(`refresh answered ${response.statusCode}: ${JSON.stringify(body)}`);
    }
    accessTokens[index] = body.access_token;
  });
  return accessTokens;
}
