import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { RequestGate, relayKafkaConnection } from './kafka-relay';
import { waitFor } from './wait-for';

/**
 * Runs mokapi (a Kafka-protocol mock broker configured by an AsyncAPI document) for integration
 * tests, reachable only from this machine's loopback interface.
 *
 * mokapi 0.52 cannot be told which address to bind: its Kafka listener takes only the port of the
 * AsyncAPI server's `host`, and its HTTP API/dashboard (`--api-port`) has no host setting, so both
 * listen on every interface. It therefore runs inside a private network namespace (`unshare
 * --net`, with a user namespace so no privileges are needed and a PID namespace so it dies with
 * the test), where "every interface" is only that namespace's own loopback. A small relay inside
 * (`netns-relay.mjs`) exposes the Kafka port on a Unix socket, and this process listens on
 * 127.0.0.1 — the same port number as inside, so the broker address mokapi advertises in its
 * metadata is valid outside too — and relays each connection to that socket (`kafka-relay.ts`,
 * which also works around a mokapi race). Nothing is bound to a non-loopback address, and the
 * dashboard is not reachable at all.
 */

export interface MokapiBroker {
  /** `127.0.0.1:<port>` */
  readonly brokers: string[];
  /** mokapi's recent output, for diagnosing a failure. */
  output(): string;
  /** Throws, with mokapi's last output, if it is no longer running. */
  assertRunning(): void;
  stop(): Promise<void>;
}

export type Isolation = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const NAMESPACE_FLAGS = ['--user', '--map-root-user', '--net', '--pid', '--fork', '--kill-child'];
const READY_MARKER = '@@netns-relay-ready@@';
const OUTPUT_LINES_MAX = 2_000;
/** Port of mokapi's HTTP API inside the namespace; unreachable from outside, so any fixed port will do. */
const API_PORT_INSIDE = 18080;

export function mokapiBinary(): string {
  const require = createRequire(import.meta.url);
  return require(`@go-mokapi/${process.platform}-${process.arch}`) as string;
}

let isolation: Isolation | undefined;

/** Whether this machine can run mokapi in a private network namespace (Linux with user namespaces). */
export function mokapiIsolation(): Isolation {
  isolation ??= probeIsolation();
  return isolation;
}

function probeIsolation(): Isolation {
  if (process.platform !== 'linux') return { ok: false, reason: 'network namespaces need Linux' };
  try {
    mokapiBinary();
  } catch {
    return { ok: false, reason: 'the go-mokapi binary for this platform is not installed' };
  }
  const probe = spawnSync('unshare', [...NAMESPACE_FLAGS, '--', 'sh', '-c', 'ip link set lo up'], {
    stdio: 'pipe',
    timeout: 5_000,
  });
  if (probe.error || probe.status !== 0) {
    const detail = probe.error?.message ?? probe.stderr.toString().trim();
    return {
      ok: false,
      reason: `cannot create a private network namespace (${detail || `exit ${probe.status}`})`,
    };
  }
  return { ok: true };
}

/** Starts mokapi with the AsyncAPI document `document(serverHost)` and waits until the broker answers. */
export async function startMokapi(options: {
  document: (serverHost: string) => object;
  startTimeoutMs?: number;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
}): Promise<MokapiBroker> {
  const support = mokapiIsolation();
  if (!support.ok) throw new Error(`mokapi cannot run isolated here: ${support.reason}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'updown-mokapi-'));
  const socketPath = path.join(dir, 'kafka.sock');
  const sockets = new Set<net.Socket>();
  const gate = new RequestGate();
  const outer = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    relayKafkaConnection(client, upstream, gate);
  });
  await new Promise<void>((resolve, reject) => {
    outer.once('error', reject);
    outer.listen({ host: '127.0.0.1', port: 0 }, resolve);
  });
  const port = (outer.address() as net.AddressInfo).port;
  const serverHost = `127.0.0.1:${port}`;
  // mokapi watches the directory of its configuration file, so the document gets one to itself.
  const configDir = path.join(dir, 'config');
  await mkdir(configDir);
  const documentPath = path.join(configDir, 'asyncapi.json');
  await writeFile(documentPath, JSON.stringify(options.document(serverHost), null, 2));

  const output: string[] = [];
  // A Go crash prints its cause first and then thousands of stack lines; keep the cause apart.
  const alerts: string[] = [];
  const child = spawnIsolated(dir, socketPath, port, documentPath, options.logLevel ?? 'warn');
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.includes(READY_MARKER)) resolve();
        else if (line.trim() !== '') output.push(line);
        if (/fatal error|^panic:|exited \(/.test(line) && alerts.length < 20) alerts.push(line);
      }
      output.splice(0, Math.max(0, output.length - OUTPUT_LINES_MAX));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`mokapi exited early (${code ?? signal})`)));
  });

  ready.catch(() => undefined); // awaited below; this only keeps a late rejection from going unhandled

  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => outer.close(() => resolve()));
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await withTimeout(ready, options.startTimeoutMs ?? 20_000, 'mokapi to listen');
    await waitUntilBrokerAnswers([serverHost], options.startTimeoutMs ?? 20_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- mokapi output ---\n${output.join('\n')}`, {
      cause: error,
    });
  }
  return {
    brokers: [serverHost],
    output: () => output.join('\n'),
    assertRunning() {
      if (child.exitCode !== null || child.signalCode !== null) {
        const detail = [...alerts, '...', ...output.slice(-30)].join('\n');
        throw new Error(`mokapi is no longer running\n--- mokapi output ---\n${detail}`);
      }
    },
    stop,
  };
}

function spawnIsolated(
  cwd: string,
  socketPath: string,
  port: number,
  documentPath: string,
  logLevel: string,
): ChildProcess {
  const relay = fileURLToPath(new URL('./netns-relay.mjs', import.meta.url));
  const mokapiArgs = [
    '--providers-file-filename',
    documentPath,
    '--api-port',
    String(API_PORT_INSIDE),
    '--api-dashboard=false',
    '--api-search-enabled=false',
    '--health-enabled=false',
    '--mcp-server-enabled=false',
    '--log-level',
    logLevel,
  ];
  return spawn(
    'unshare',
    [
      ...NAMESPACE_FLAGS,
      '--',
      'sh',
      '-c',
      'ip link set lo up && exec "$@"',
      'netns',
      process.execPath,
      relay,
      socketPath,
      String(port),
      mokapiBinary(),
      ...mokapiArgs,
    ],
    { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: withoutMokapiVariables(process.env) },
  );
}

/** mokapi reads every `MOKAPI_*` variable as configuration and exits on one it does not know. */
function withoutMokapiVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.toUpperCase().startsWith('MOKAPI_')),
  );
}

async function waitUntilBrokerAnswers(brokers: string[], timeoutMs: number): Promise<void> {
  const kafka = new Kafka({
    clientId: 'mokapi-probe',
    brokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });
  await waitFor(
    async () => {
      const admin = kafka.admin();
      try {
        await admin.connect();
        await admin.listTopics();
        return true;
      } catch {
        return false;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    },
    { timeoutMs, intervalMs: 50, what: 'the mock broker to answer' },
  );
}

/** SIGTERM ends `unshare`, which kills the namespace's first process and with it everything inside. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
