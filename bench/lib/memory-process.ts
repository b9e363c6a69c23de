import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { median, parseVmRssMb, type RssSample } from './memory-stats';
import { startPlatformChild } from './placement-platform';

/**
 * Processes whose memory the memory benchmarks measure: the whole platform as `npm start` runs it
 * (in a child process, so the load generator's own heap is not counted), and a bare Node process
 * doing nothing, the runtime's floor. RSS is read from `/proc/<pid>/status` (VmRSS), as `ps` and
 * `top` report it.
 */

/** The tail of the child's output kept for error messages; the rest is read and dropped. */
const OUTPUT_KEEP_CHARS = 8_000;

export interface MeasuredProcess {
  readonly pid: number;
  /** The process's own RSS, in MB; null once it has exited. */
  rssMb(): Promise<number | null>;
  /** RSS of the processes it started (and theirs), in MB; 0 when there are none. */
  descendantsRssMb(): Promise<number>;
  /** The last lines it printed, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface PlatformProcess extends MeasuredProcess {
  readonly baseUrl: string;
}

export async function readRssMb(pid: number): Promise<number | null> {
  try {
    return parseVmRssMb(await readFile(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

/** Every live process whose ancestry leads to `pid` (not `pid` itself), from each `/proc/<id>/stat`. */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // Field 4 is the parent id; the command name (field 2) may hold spaces, so split after it.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // Exited while listing.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function measured(pid: number, output: () => string, stop: () => Promise<void>): MeasuredProcess {
  return {
    pid,
    rssMb: () => readRssMb(pid),
    async descendantsRssMb() {
      let total = 0;
      for (const id of await descendants(pid)) total += (await readRssMb(id)) ?? 0;
      return total;
    },
    output,
    stop,
  };
}

function keepTail(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEEP_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

/**
 * `npm start` as it runs for a user (`node --import tsx services/platform/src/main.ts`) at its
 * default log level, on the given database, without building the console, with the per-IP sign-in
 * ceiling raised so the load can register its users (see `startPlatformChild`).
 */
export async function startPlatformProcess(databaseUrl: string): Promise<PlatformProcess> {
  // npm start's own log level: what a user's process holds includes its logging.
  const platform = await startPlatformChild({ databaseUrl, extraEnv: { LOG_LEVEL: 'info' } });
  return { ...measured(platform.pid, platform.output, platform.stop), baseUrl: platform.baseUrl };
}

/** A Node process that only keeps its event loop alive: what the runtime costs before any code. */
export function startIdleNode(): MeasuredProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return measured(child.pid!, keepTail(child), async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
}

/**
 * Samples a process's RSS every `intervalMs` for `durationMs` and returns the samples; a sample
 * after the process exited ends the series with an error, since a dead process has no memory.
 * `alongside` runs at every sample, with its time, for figures taken with the RSS.
 */
export async function sampleRss(
  target: MeasuredProcess,
  durationMs: number,
  intervalMs: number,
  alongside?: (atMs: number) => Promise<void>,
): Promise<RssSample[]> {
  const samples: RssSample[] = [];
  const start = Date.now();
  for (;;) {
    const rssMb = await target.rssMb();
    if (rssMb === null) throw new Error(`process ${target.pid} exited while sampled:\n${target.output()}`);
    const atMs = Date.now() - start;
    samples.push({ atMs, rssMb });
    await alongside?.(atMs);
    const next = start + samples.length * intervalMs;
    if (next - start > durationMs) return samples;
    await sleep(Math.max(0, next - Date.now()));
  }
}

export function medianRssMb(samples: readonly RssSample[]): number {
  return median(samples.map((s) => s.rssMb));
}
