import { spawn } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ApiClient, newUser, signUp } from '@updown/api-client';
import { freePort } from '@updown/runtime';

/**
 * `tsx scripts/ci/start-smoke.ts`: what a user does first, on whatever Node runs this script.
 * Runs `npm start` in this checkout (default DATA_DIR, so the embedded PostgreSQL), waits for
 * `/readyz`, registers, signs in and places one demo trade through the public API, then stops the
 * platform with SIGTERM and expects a clean shutdown. Loopback only, on a free port other than
 * 8080. Exit 0 when every step passed; 1 with the platform's last log lines otherwise.
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const READY_TIMEOUT_MS = 5 * 60_000; // the first start builds the console
const PLACE_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 30_000;
const LOG_FILE = path.join(REPO_ROOT, '.data', 'start-smoke.log');

async function main(): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  console.log(`start-smoke: node ${process.version}, ${REPO_ROOT}, ${base}`);
  const platform = startPlatform(port);
  try {
    const readyMs = await waitReady(base, platform);
    console.log(`start-smoke: /readyz 200 after ${Math.round(readyMs / 1000)} s`);
    const trade = await placeDemoTrade(base);
    console.log(`start-smoke: placed demo trade ${trade.id} (${trade.status})`);
    await platform.stop();
    if (!readFileSync(LOG_FILE, 'utf8').includes('shutdown complete'))
      throw new Error('no "shutdown complete" in the log');
    console.log('start-smoke: stopped cleanly');
  } catch (error) {
    await platform.kill();
    console.error(tail(LOG_FILE, 40));
    throw error;
  } finally {
    await removeRelocatedCluster();
  }
}

function startPlatform(port: number) {
  mkdirSync(path.dirname(LOG_FILE), { recursive: true });
  const log = openSync(LOG_FILE, 'w');
  // Its own process group: the signal reaches npm, tsx and the platform alike.
  const child = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', log, log],
    detached: true,
  });
  closeSync(log);
  let exited = false;
  child.once('exit', () => (exited = true));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Already gone.
    }
  };
  // npm exits on the signal at once; the platform goes on draining. Done means the group is empty.
  const groupGone = async (timeoutMs: number) => {
    for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(100)) {
      try {
        process.kill(-child.pid!, 0);
      } catch {
        return true;
      }
    }
    return false;
  };
  return {
    exited: () => exited,
    async stop() {
      signal('SIGTERM');
      if (!(await groupGone(STOP_TIMEOUT_MS))) throw new Error('npm start did not stop on SIGTERM');
    },
    async kill() {
      signal('SIGKILL');
      await groupGone(5_000);
      await stopOrphanedPostgres();
    },
  };
}

async function waitReady(base: string, platform: { exited(): boolean }): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < READY_TIMEOUT_MS) {
    if (platform.exited()) throw new Error('npm start exited before /readyz answered');
    const status = await fetch(`${base}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return Date.now() - started;
    await sleep(500);
  }
  throw new Error(`/readyz did not answer 200 within ${READY_TIMEOUT_MS} ms`);
}

async function placeDemoTrade(base: string): Promise<{ id: string; status: string }> {
  const api = new ApiClient(base);
  const { accessToken: token } = await signUp(api, newUser('Smoke'));
  const deadline = Date.now() + PLACE_TIMEOUT_MS;
  // Right after start the feed may not have a fresh tick yet; the API then refuses, so retry briefly.
  for (;;) {
    try {
      return await api.post(
        '/api/trades/place',
        { pair: 'BTCUSDT', direction: 'UP', amount: 10, duration: 60, account_type: 'demo' },
        { token },
      );
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(1_000);
    }
  }
}

/** A platform killed hard leaves its PostgreSQL running (it runs in its own process group); stop it. */
async function stopOrphanedPostgres(): Promise<void> {
  const pidFile = path.join(REPO_ROOT, '.data', 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let i = 0; i < 100 && existsSync(pidFile); i++) await sleep(100);
}

/**
 * As root in a folder the postgres user cannot enter, the cluster lives under
 * /var/lib/updown/embedded-postgres and `.data/pg` links to it; this throwaway clone's goes with it.
 */
async function removeRelocatedCluster(): Promise<void> {
  const link = path.join(REPO_ROOT, '.data', 'pg');
  if (existsSync(link) && lstatSync(link).isSymbolicLink()) {
    const target = readlinkSync(link);
    console.log(
      `start-smoke: the cluster was kept in ${target} (the postgres user cannot enter this clone); removed`,
    );
    await rm(target, { recursive: true, force: true });
  }
}

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main().catch((error: unknown) => {
  console.error(`start-smoke failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
