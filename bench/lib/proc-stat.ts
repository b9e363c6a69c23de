import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/**
 * CPU time of processes from Linux's `/proc/<pid>/stat`: what a process actually burned, whatever
 * else the machine was doing. Wall-clock latency on a shared machine moves with the neighbours;
 * CPU time per unit of work moves much less, so it is the figure to compare between runs.
 */

export interface ProcStat {
  readonly pid: number;
  /** The executable's name as the kernel keeps it (at most 15 characters), without the parentheses. */
  readonly comm: string;
  readonly state: string;
  readonly ppid: number;
  /** Clock ticks in user and kernel mode. */
  readonly utimeTicks: number;
  readonly stimeTicks: number;
  /** Clock ticks of children that have exited and been waited for. */
  readonly cutimeTicks: number;
  readonly cstimeTicks: number;
}

/**
 * Parses one `/proc/<pid>/stat` line. The name (field 2) is in parentheses and may itself hold
 * spaces and parentheses, so the fields after it are found from the last `)`.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 1 || close < open) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  const pid = Number(line.slice(0, open).trim());
  const rest = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state); field n is rest[n - 3].
  const field = (n: number): number => {
    const value = Number(rest[n - 3]);
    if (!Number.isFinite(value)) throw new Error(`field ${n} missing in /proc stat line of pid ${pid}`);
    return value;
  };
  return {
    pid,
    comm: line.slice(open + 1, close),
    state: rest[0] ?? '?',
    ppid: field(4),
    utimeTicks: field(14),
    stimeTicks: field(15),
    cutimeTicks: field(16),
    cstimeTicks: field(17),
  };
}

let ticksPerSecond: number | undefined;

/** `sysconf(_SC_CLK_TCK)`, 100 on every mainstream Linux; asked once of `getconf`. */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** The stat of `pid`, or undefined when it is gone (or /proc is not there). */
export async function readProcStat(pid: number): Promise<ProcStat | undefined> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The command line of `pid` with its NUL separators as spaces ('' when gone). */
export async function readCmdline(pid: number): Promise<string> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replace(/\0+/g, ' ').trim();
  } catch {
    return '';
  }
}

/** Seconds of CPU (user + system) of the process itself. */
export function ownCpuSeconds(stat: ProcStat, hz = clockTicksPerSecond()): number {
  return (stat.utimeTicks + stat.stimeTicks) / hz;
}

/** Every process whose parent is `ppid`, read from /proc at once. */
export async function childrenOf(ppid: number): Promise<ProcStat[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const stats = await Promise.all(
    entries.filter((name) => /^\d+$/.test(name)).map((name) => readProcStat(Number(name))),
  );
  return stats.filter((s): s is ProcStat => s !== undefined && s.ppid === ppid);
}
