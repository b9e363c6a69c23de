import pg from 'pg';

/**
 * What the backends of one database are doing, sampled from `pg_stat_activity` every few tens of
 * milliseconds: on CPU, waiting on a lock, on WAL, on I/O, or idle inside a transaction while the
 * application thinks. Summed over a load step, the counts say where the server's time went, and
 * `pg_locks` rows not granted say which locks were queued for.
 */

export interface ActivityRow {
  /** `active`, `idle in transaction`, … */
  readonly state: string | null;
  readonly wait_event_type: string | null;
  readonly wait_event: string | null;
}

export interface LockWaitRow {
  readonly locktype: string;
  readonly mode: string;
}

export interface ActivitySample {
  readonly activity: readonly ActivityRow[];
  readonly lockWaits: readonly LockWaitRow[];
}

/**
 * One label per backend state worth counting: `CPU` for an active backend with no wait event
 * (running, or about to report one), `<type>:<event>` for an active one that waits, and
 * `in transaction, <type>:<event>` for a backend holding a transaction open between statements
 * (usually `Client:ClientRead`: waiting for the application's next statement). Idle connections
 * outside a transaction are not work and get no label.
 */
export function activityLabel(row: ActivityRow): string | undefined {
  const waiting = row.wait_event_type ? `${row.wait_event_type}:${row.wait_event ?? '?'}` : undefined;
  if (row.state === 'active') return waiting ?? 'CPU';
  if (row.state?.startsWith('idle in transaction')) return `in transaction, ${waiting ?? 'CPU'}`;
  return undefined;
}

export interface ActivitySummary {
  readonly samples: number;
  /** Average backends per sample in each label, largest first. */
  readonly backends: Readonly<Record<string, number>>;
  /** Average waiting lock requests per sample, by `<locktype>/<mode>`, largest first. */
  readonly lockWaits: Readonly<Record<string, number>>;
  /** Samples that saw at least one lock request waiting. */
  readonly samplesWithLockWaits: number;
}

function averagesBySize(counts: Map<string, number>, samples: number): Record<string, number> {
  return Object.fromEntries(
    [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([label, count]) => [label, samples > 0 ? count / samples : 0]),
  );
}

export function summarizeActivity(samples: readonly ActivitySample[]): ActivitySummary {
  const backends = new Map<string, number>();
  const locks = new Map<string, number>();
  let samplesWithLockWaits = 0;
  for (const sample of samples) {
    for (const row of sample.activity) {
      const label = activityLabel(row);
      if (label) backends.set(label, (backends.get(label) ?? 0) + 1);
    }
    if (sample.lockWaits.length > 0) samplesWithLockWaits++;
    for (const wait of sample.lockWaits) {
      const label = `${wait.locktype}/${wait.mode}`;
      locks.set(label, (locks.get(label) ?? 0) + 1);
    }
  }
  return {
    samples: samples.length,
    backends: averagesBySize(backends, samples.length),
    lockWaits: averagesBySize(locks, samples.length),
    samplesWithLockWaits,
  };
}

/** A summary as one short line: `CPU 1.20, Client:ClientRead 0.40, …` (average backends per sample). */
export function describeActivity(summary: ActivitySummary, labelsMax = 6): string {
  const part = (entries: Record<string, number>) =>
    Object.entries(entries)
      .slice(0, labelsMax)
      .map(([label, average]) => `${label} ${average.toFixed(2)}`)
      .join(', ');
  const backends = part(summary.backends) || 'none active';
  const locks =
    summary.samplesWithLockWaits > 0
      ? `; lock waits in ${summary.samplesWithLockWaits} samples: ${part(summary.lockWaits)}`
      : '; no lock waits';
  return `${summary.samples} samples: ${backends}${locks}`;
}

const ACTIVITY_SQL = `
  select state, wait_event_type, wait_event from pg_stat_activity
  where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
const LOCK_WAITS_SQL = `
  select l.locktype, l.mode from pg_locks l
  join pg_stat_activity a on a.pid = l.pid
  where not l.granted and a.datname = current_database() and a.pid <> pg_backend_pid()`;

/**
 * Two exact, immediate counters of the server (every database on it): transaction ids handed out
 * (one per transaction that wrote anything, committed or not) and bytes of WAL written. The
 * cumulative statistics views (`pg_stat_database`, `pg_stat_wal`) would say more, but backends
 * publish them up to ten seconds late, too late for windows of a few seconds.
 */
export interface DatabaseCounters {
  readonly writeTransactions: number;
  readonly walBytes: number;
}

export function countersBetween(start: DatabaseCounters, end: DatabaseCounters): DatabaseCounters {
  return {
    writeTransactions: end.writeTransactions - start.writeTransactions,
    walBytes: end.walBytes - start.walBytes,
  };
}

/** Per placement: write transactions and WAL bytes. */
export function describeCounters(delta: DatabaseCounters, placements: number): string {
  const per = (value: number, digits: number) =>
    placements > 0 ? (value / placements).toFixed(digits) : '—';
  return `per placement ${per(delta.writeTransactions, 2)} write transactions, ${per(delta.walBytes, 0)} B of WAL`;
}

// The snapshot's xmax is the next transaction id to be assigned; reading it assigns none.
const COUNTERS_SQL = `
  select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as "writeTransactions",
         pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint as "walBytes"`;

export interface ActivitySampler {
  /** The sampler's own backend, to leave out of CPU accounting. */
  readonly backendPid: number;
  /** The database's and the WAL's counters now (not while sampling: one query at a time). */
  counters(): Promise<DatabaseCounters>;
  /** Starts collecting (clearing what was collected before). */
  start(): void;
  /** Stops collecting and summarises the samples since `start`. */
  stop(): Promise<ActivitySummary>;
  close(): Promise<void>;
}

/**
 * A sampler on its own connection to `url`'s database. Samples never overlap: the next waits for
 * the previous one, so a slow server gets fewer samples rather than a pile of queries.
 */
export async function openActivitySampler(url: string, intervalMs = 50): Promise<ActivitySampler> {
  const client = new pg.Client({ connectionString: url, application_name: 'updown-bench-sampler' });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  let samples: ActivitySample[] = [];
  let running: Promise<void> | undefined;
  let active = false;
  const loop = async () => {
    while (active) {
      const startedAt = performance.now();
      const [activity, lockWaits] = await Promise.all([
        client.query<ActivityRow>(ACTIVITY_SQL),
        client.query<LockWaitRow>(LOCK_WAITS_SQL),
      ]);
      samples.push({ activity: activity.rows, lockWaits: lockWaits.rows });
      const waitMs = intervalMs - (performance.now() - startedAt);
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  };
  return {
    backendPid: rows[0]!.pid,
    async counters() {
      const result = await client.query<Record<keyof DatabaseCounters, string>>(COUNTERS_SQL);
      const row = result.rows[0]!;
      return Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key, Number(value)]),
      ) as unknown as DatabaseCounters;
    },
    start() {
      if (active) return;
      samples = [];
      active = true;
      running = loop();
    },
    async stop() {
      active = false;
      await running;
      running = undefined;
      return summarizeActivity(samples);
    },
    async close() {
      active = false;
      await running?.catch(() => undefined);
      await client.end();
    },
  };
}
