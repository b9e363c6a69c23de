import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';
import { DelayHistogram } from './fanout-stats';

/**
 * The fan-out benchmark's WebSocket clients, run in child processes so the server under test does
 * not also carry them on its event loop. Each child opens its share of sockets (the global socket
 * number picks the pair round-robin), parses every message as a browser would, and records
 * receive time − `ts` for ticks stamped inside the measuring window. The parent drives it over IPC.
 */

export type ClientCommand =
  | {
      readonly type: 'connect';
      readonly url: string;
      readonly pairs: readonly string[];
      readonly count: number;
      /** Global number of this child's first socket. */
      readonly offset: number;
      readonly concurrency: number;
    }
  | { readonly type: 'measure'; readonly fromMs: number; readonly toMs: number }
  | { readonly type: 'report' }
  | { readonly type: 'disconnect' };

export type ClientReply =
  | {
      readonly type: 'connected';
      readonly opened: number;
      readonly failed: number;
      readonly firstError?: string;
    }
  | {
      readonly type: 'report';
      /** Messages stamped inside the window. */
      readonly received: number;
      readonly delays: [number, number][];
      /** Sockets that closed before the report. */
      readonly closed: number;
      readonly cpuMs: number;
    }
  | { readonly type: 'disconnected' }
  | { readonly type: 'measuring' };

/** How long one socket may take to open before the run counts it failed. */
const HANDSHAKE_TIMEOUT_MS = 30_000;

async function runChild(): Promise<void> {
  let sockets: WebSocket[] = [];
  let histogram = new DelayHistogram();
  let received = 0;
  let closed = 0;
  let window = { fromMs: Number.POSITIVE_INFINITY, toMs: Number.NEGATIVE_INFINITY };
  let cpuAtMeasure = process.cpuUsage();
  const reply = (message: ClientReply) => process.send!(message);
  // A parent that died leaves no orphaned clients behind.
  process.on('disconnect', () => process.exit(0));

  const onMessage = (data: WebSocket.RawData) => {
    const now = Date.now();
    const tick = JSON.parse(data.toString()) as { ts: number };
    if (tick.ts >= window.fromMs && tick.ts < window.toMs) {
      received++;
      histogram.record(now - tick.ts);
    }
  };

  const open = (url: string): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: HANDSHAKE_TIMEOUT_MS, perMessageDeflate: false });
      socket.once('open', () => {
        socket.off('error', reject);
        socket.on('error', () => undefined);
        socket.on('message', onMessage);
        socket.once('close', () => closed++);
        resolve(socket);
      });
      socket.once('error', reject);
      socket.once('close', (code, reason) => reject(new Error(`closed ${code} ${reason.toString()}`)));
    });

  process.on('message', (command: ClientCommand) => {
    void (async () => {
      switch (command.type) {
        case 'connect': {
          let next = 0;
          let failed = 0;
          let firstError: string | undefined;
          const opened: WebSocket[] = [];
          const worker = async () => {
            while (next < command.count) {
              const n = command.offset + next++;
              const pair = command.pairs[n % command.pairs.length]!;
              try {
                opened.push(await open(`${command.url}?pair=${encodeURIComponent(pair)}`));
              } catch (error) {
                failed++;
                firstError ??= (error as Error).message;
              }
            }
          };
          await Promise.all(Array.from({ length: command.concurrency }, worker));
          sockets = opened;
          closed = 0;
          reply({ type: 'connected', opened: opened.length, failed, ...(firstError ? { firstError } : {}) });
          return;
        }
        case 'measure':
          histogram = new DelayHistogram();
          received = 0;
          window = { fromMs: command.fromMs, toMs: command.toMs };
          cpuAtMeasure = process.cpuUsage();
          reply({ type: 'measuring' });
          return;
        case 'report': {
          const cpu = process.cpuUsage(cpuAtMeasure);
          reply({
            type: 'report',
            received,
            delays: histogram.toSparse(),
            closed,
            cpuMs: (cpu.user + cpu.system) / 1000,
          });
          return;
        }
        case 'disconnect':
          await Promise.all(
            sockets.map(
              (socket) =>
                new Promise<void>((resolve) => {
                  if (socket.readyState === WebSocket.CLOSED) return resolve();
                  socket.once('close', () => resolve());
                  socket.terminate();
                }),
            ),
          );
          sockets = [];
          reply({ type: 'disconnected' });
          return;
      }
    })();
  });
}

/** A child process of clients and a typed request/answer over its IPC channel. */
export interface ClientProcess {
  readonly pid: number;
  request<T extends ClientReply['type']>(
    command: ClientCommand,
    answer: T,
    timeoutMs: number,
  ): Promise<Extract<ClientReply, { type: T }>>;
  stop(): Promise<void>;
}

export function startClientProcess(): ClientProcess {
  const child: ChildProcess = fork(import.meta.filename, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    request(command, answer, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          child.off('message', onReply);
          reject(new Error(`client process ${child.pid}: no '${answer}' within ${timeoutMs} ms`));
        }, timeoutMs);
        const onReply = (message: ClientReply) => {
          if (message.type !== answer) return;
          clearTimeout(timer);
          child.off('message', onReply);
          resolve(message as Extract<ClientReply, { type: typeof answer }>);
        };
        child.on('message', onReply);
        child.send(command);
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

if (
  process.send &&
  process.argv[1] &&
  pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url
) {
  void runChild();
}
