import { freePort } from '@updown/runtime';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { testPlatformEnv } from './test-env';

export const PLATFORM_SCRIPT = 'services/platform/src/main.ts';
const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 200;
const STOP_GRACE_MS = 15_000;

export interface PlatformProcess extends ServiceProcess {
  /** `http://127.0.0.1:<port>` of the gateway. */
  readonly baseUrl: string;
  readonly pid: number;
}

export interface PlatformProcessOptions {
  /** Names the temporary directory and the process in error messages. */
  readonly name: string;
  /** Configuration variables added to, or replacing, the defaults of `testPlatformEnv`. */
  readonly env?: Readonly<Record<string, string>>;
  /** Flags for node before the script, e.g. `--cpu-prof`. */
  readonly nodeArgs?: readonly string[];
  /** Another checkout to run the platform from (its own `node_modules` included); default this one. */
  readonly root?: string;
}

/**
 * `npm start`'s entry point as a child process, with the defaults of `startInProcessPlatform`
 * (loopback, a free port, a temporary data directory, no console build): for tests that signal
 * the process, measure its memory or keep its event loop apart from the load generator's.
 * Resolves once `/readyz` answers 200, at any log level; the database is `DATABASE_URL` in `env`,
 * or the embedded PostgreSQL in `DATA_DIR`. `stop` also removes the temporary directory.
 */
export async function startPlatformProcess(options: PlatformProcessOptions): Promise<PlatformProcess> {
  const port = await freePort();
  const setup = await testPlatformEnv({ name: options.name, port, env: options.env });
  const service = startServiceProcess(options.name, PLATFORM_SCRIPT, { ...setup.env }, 'gateway listening', {
    nodeArgs: options.nodeArgs,
    root: options.root,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (graceMs = STOP_GRACE_MS) => {
    await service.stop(graceMs);
    await setup.cleanUp();
  };
  try {
    await waitReady(baseUrl, service);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...service, baseUrl, pid: service.child.pid!, stop };
}

async function waitReady(baseUrl: string, service: ServiceProcess): Promise<void> {
  let exitCode: number | null | undefined;
  void service.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`platform exited with ${exitCode}:\n${service.output()}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`platform not ready after ${READY_TIMEOUT_MS} ms:\n${service.output()}`);
}
