import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { buildAsyncApiDocument, eventTopics } from '@updown/schemas';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

export type ServiceName = 'price-ingest' | 'settlement' | 'order' | 'gateway';

/** Each service's entry point, as `npm run start:<service>` runs it. */
export const SERVICE_SCRIPTS: Readonly<Record<ServiceName, string>> = Object.freeze({
  'price-ingest': 'services/price-ingest/src/main.ts',
  settlement: 'services/settlement/src/main.ts',
  order: 'services/order/src/main.ts',
  gateway: 'services/platform/src/gateway.main.ts',
});

/** Output kept per process for diagnosing a failure; older lines are dropped. */
const OUTPUT_CHARS_MAX = 200_000;

export interface ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** The URL the service logged once it listened. */
  readonly address: Promise<string>;
  readonly exited: Promise<number | null>;
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  kill(): Promise<void>;
}

/**
 * Runs one service's entry point as its own Node process, the way `npm run start:<service>` does,
 * and resolves `address` from the JSON log line whose message is `readyMessage`. `nodeArgs` go to
 * node before the script (e.g. `--cpu-prof`); `root` runs another checkout's code instead of this one's.
 */
export function startServiceProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  readyMessage: string,
  options: {
    readonly nodeArgs?: readonly string[];
    /** The checkout whose code runs (default: this one), so one harness can measure two trees alike. */
    readonly root?: string;
  } = {},
): ServiceProcess {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script], {
    cwd: options.root ?? REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pattern = new RegExp(`"address":"(https?://[^"]+)"[^\\n]*"msg":"${readyMessage}"`);
  const address = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_CHARS_MAX);
      const match = pattern.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) =>
      reject(new Error(`${name} exited with ${code} before it listened:\n${output}`)),
    );
  });
  address.catch(() => undefined);
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  return { name, child, address, exited, output: () => output, stop, kill };
}

/**
 * The AsyncAPI document mokapi serves as its Kafka broker: every topic of the event registry, with
 * the group coordinator waiting 400 ms instead of 3 s for members before it (re)balances a group,
 * so a restarted settlement or gateway rejoins its group quickly.
 */
export function mokapiDocument(serverHost: string): object {
  const doc = buildAsyncApiDocument(eventTopics, { serverHost }) as {
    servers: { kafka: Record<string, unknown> };
  };
  doc.servers.kafka.bindings = { kafka: { 'group.initial.rebalance.delay.ms': 400 } };
  return doc;
}
