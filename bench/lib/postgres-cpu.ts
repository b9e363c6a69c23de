import { childrenOf, clockTicksPerSecond, readCmdline, readProcStat, type ProcStat } from './proc-stat';

/**
 * CPU time of a PostgreSQL server running on this machine, per kind of process, between two
 * snapshots of its postmaster's children. A backend that exits between the snapshots is not lost:
 * the postmaster's `cutime`/`cstime` grow by what its reaped children used, so the exited part is
 * that growth minus what those processes had already used at the first snapshot.
 */

export type PostgresProcessKind =
  /** Client backends connected to the database under test (not the harness's own). */
  | 'backends'
  /** Backends of the database under test that the harness itself uses (samplers). */
  | 'harness'
  /** Autovacuum workers and launcher. */
  | 'autovacuum'
  /** WAL writer, checkpointer, background writer, and every other process of the server. */
  | 'background'
  /** Processes that exited between the snapshots (connections closed, parallel workers). */
  | 'exited';

export const POSTGRES_PROCESS_KINDS: readonly PostgresProcessKind[] = [
  'backends',
  'harness',
  'autovacuum',
  'background',
  'exited',
];

/**
 * What a server process is, from its title (`postgres: <user> <database> <client> <state>` for a
 * client backend, `postgres: walwriter`, `postgres: autovacuum worker <database>`, …).
 */
export function classifyPostgresProcess(
  title: string,
  database: string,
  pid: number,
  harnessPids: ReadonlySet<number>,
): Exclude<PostgresProcessKind, 'exited'> {
  // A server with `cluster_name` set puts it first: `postgres: 15/main: checkpointer`.
  const words = title
    .replace(/^postgres:\s*/, '')
    .replace(/^\S+:\s+/, '')
    .split(/\s+/);
  if (words[0] === 'autovacuum') return 'autovacuum';
  // A client backend's title is user, database, client address: the second word is the database.
  if (words[1] === database) return harnessPids.has(pid) ? 'harness' : 'backends';
  return 'background';
}

interface Tracked {
  readonly kind: Exclude<PostgresProcessKind, 'exited'>;
  readonly ticks: number;
}

export interface PostgresCpuSnapshot {
  readonly processes: ReadonlyMap<number, Tracked>;
  /** The postmaster's own ticks and those of its reaped children. */
  readonly postmasterTicks: number;
  readonly reapedTicks: number;
}

export type PostgresCpuSeconds = Readonly<Record<PostgresProcessKind, number>> & { readonly total: number };

/** The CPU used between two snapshots, by kind, in seconds. */
export function postgresCpuBetween(
  start: PostgresCpuSnapshot,
  end: PostgresCpuSnapshot,
  hz = clockTicksPerSecond(),
): PostgresCpuSeconds {
  const ticks: Record<PostgresProcessKind, number> = {
    backends: 0,
    harness: 0,
    autovacuum: 0,
    // The postmaster's own work (forking, supervising) is the server's background.
    background: end.postmasterTicks - start.postmasterTicks,
    exited: end.reapedTicks - start.reapedTicks,
  };
  for (const [pid, now] of end.processes) {
    ticks[now.kind] += now.ticks - (start.processes.get(pid)?.ticks ?? 0);
  }
  for (const [pid, before] of start.processes) {
    if (!end.processes.has(pid)) ticks.exited -= before.ticks;
  }
  // A process reaped after `end` was read but whose last ticks landed in `reapedTicks` could push
  // `exited` a tick below zero; never report negative time.
  ticks.exited = Math.max(0, ticks.exited);
  const seconds = Object.fromEntries(
    POSTGRES_PROCESS_KINDS.map((kind) => [kind, ticks[kind] / hz]),
  ) as Record<PostgresProcessKind, number>;
  return { ...seconds, total: POSTGRES_PROCESS_KINDS.reduce((sum, kind) => sum + seconds[kind], 0) };
}

/**
 * Snapshots the server whose postmaster is `postmasterPid`. Titles are read once per process and
 * remembered (a backend keeps its database for life).
 */
export class PostgresCpuMeter {
  private readonly titles = new Map<number, string>();

  constructor(
    readonly postmasterPid: number,
    private readonly database: string,
    private readonly harnessPids: ReadonlySet<number> = new Set(),
  ) {}

  async snapshot(): Promise<PostgresCpuSnapshot> {
    const [postmaster, children] = await Promise.all([
      readProcStat(this.postmasterPid),
      childrenOf(this.postmasterPid),
    ]);
    if (!postmaster) throw new Error(`PostgreSQL's postmaster (pid ${this.postmasterPid}) is gone`);
    const processes = new Map<number, Tracked>();
    await Promise.all(
      children.map(async (child) => {
        processes.set(child.pid, {
          kind: await this.kindOf(child),
          ticks: child.utimeTicks + child.stimeTicks,
        });
      }),
    );
    return {
      processes,
      postmasterTicks: postmaster.utimeTicks + postmaster.stimeTicks,
      reapedTicks: postmaster.cutimeTicks + postmaster.cstimeTicks,
    };
  }

  private async kindOf(child: ProcStat): Promise<Exclude<PostgresProcessKind, 'exited'>> {
    let title = this.titles.get(child.pid);
    if (title === undefined) {
      title = await readCmdline(child.pid);
      // An autovacuum worker names its database only once it has picked one; read it again later.
      if (!/autovacuum worker$/.test(title)) this.titles.set(child.pid, title);
    }
    return classifyPostgresProcess(title, this.database, child.pid, this.harnessPids);
  }
}

/**
 * The postmaster of the server behind a connection whose backend pid is `backendPid`, when that
 * server runs on this machine in this process namespace (its parent is a `postgres` process);
 * undefined otherwise (a remote server, or one in a container).
 */
export async function findPostmaster(backendPid: number): Promise<number | undefined> {
  const backend = await readProcStat(backendPid);
  if (!backend || !(await readCmdline(backendPid)).startsWith('postgres:')) return undefined;
  const parent = await readProcStat(backend.ppid);
  if (!parent || !/postgres/.test(await readCmdline(backend.ppid))) return undefined;
  return backend.ppid;
}
