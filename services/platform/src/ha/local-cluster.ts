import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A highly available PostgreSQL on this machine, from Debian's `pg_auto_failover`
 * (`postgresql-15-auto-failover`, `pg-auto-failover-cli`): a monitor, a primary and a synchronous
 * standby, each its own `pg_autoctl` keeper and PostgreSQL on its own loopback port and folder,
 * run as the `postgres` user. Every commit the primary acknowledges is on the standby first
 * (`synchronous_standby_names`, which pg_auto_failover sets once the standby has caught up), and the
 * monitor promotes the standby when the primary fails. `npm run start:ha` runs the platform on
 * one; the failover tests start one each.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';
const PG_AUTOCTL = '/usr/bin/pg_autoctl';
const STARTUP_WAIT_MS = 120_000;

export interface LocalCluster {
  /** libpq's multi-host URL of the data nodes, asking for the writable one. */
  readonly url: string;
  readonly dir: string;
  readonly nodes: readonly ClusterNode[];
  /** The node the monitor has as primary now. */
  primary(): Promise<ClusterNode>;
  /** `pg_autoctl perform failover`: the standby is promoted and the primary becomes its standby. */
  performFailover(): Promise<void>;
  /** Waits until the monitor reports one primary and one secondary again. */
  settled(): Promise<ClusterNode>;
  /** Waits until the monitor reports `node` as the primary, whatever the other's state. */
  promoted(node: ClusterNode): Promise<void>;
  /** SIGKILL to a node's keeper and its PostgreSQL: the machine lost, as far as the others can tell. */
  kill(node: ClusterNode): void;
  /** Stops every keeper and server and removes the folder. */
  stop(): Promise<void>;
}

export interface ClusterNode {
  readonly name: string;
  readonly port: number;
  readonly pgdata: string;
}

/** Why a local cluster cannot run here, or undefined when it can. */
export function localClusterUnavailable(): string | undefined {
  if (!existsSync(PG_AUTOCTL))
    return `${PG_AUTOCTL} is missing: apt-get install postgresql-15-auto-failover pg-auto-failover-cli`;
  if (!existsSync(path.join(PG_BIN, 'pg_ctl'))) return `${PG_BIN} is missing: apt-get install postgresql-15`;
  const uid = process.getuid?.();
  if (uid !== 0 && os.userInfo().username !== 'postgres')
    return 'pg_autoctl runs as the postgres user: run as root or postgres';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface LocalClusterOptions {
  /** Names the folder under the system's temporary directory. */
  readonly name: string;
  /** The database the platform uses; created on the primary and replicated. */
  readonly dbname?: string;
  /** Fixed ports (monitor, node 1, node 2); free ones by default. */
  readonly ports?: readonly [number, number, number];
  /** Told each step, for logs. */
  readonly log?: (line: string) => void;
}

/** Starts a monitor, a primary and a synchronous standby, and waits until the standby is in sync. */
export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const why = localClusterUnavailable();
  if (why) throw new Error(why);
  const log = options.log ?? (() => undefined);
  const dbname = options.dbname ?? 'updown';
  // Under the system's temporary directory, not a home folder: postgres must enter every level.
  const dir = await mkdtemp(path.join(os.tmpdir(), `updown-ha-${options.name}-`));
  const asRoot = process.getuid?.() === 0;
  const { uid, gid } = asRoot ? postgresIds() : { uid: -1, gid: -1 };
  if (asRoot) await chown(dir, uid, gid);
  const [monitorPort, port1, port2] = options.ports ?? [await freePort(), await freePort(), await freePort()];
  // Each keeper keeps its state under XDG folders of its own, so clusters never share one.
  const env = {
    PATH: `${PG_BIN}:/usr/bin:/bin`,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
    PGHOST: '127.0.0.1',
    LANG: 'C.UTF-8',
  };
  const command = (args: readonly string[]): [string, string[]] =>
    asRoot
      ? [
          'runuser',
          [
            '-u',
            'postgres',
            '--',
            'env',
            ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
            PG_AUTOCTL,
            ...args,
          ],
        ]
      : [PG_AUTOCTL, [...args]];
  const keepers: ChildProcess[] = [];
  const keeperOf = new Map<string, ChildProcess>();
  const keep = (name: string, args: readonly string[]) => {
    const logFile = openSync(path.join(dir, `${name}.log`), 'a');
    const [file, argv] = command(args);
    const child = spawn(file, argv, {
      stdio: ['ignore', logFile, logFile],
      detached: true,
      ...(asRoot ? {} : { env }),
    });
    closeSync(logFile);
    keepers.push(child);
    keeperOf.set(name, child);
    return child;
  };
  const run = (args: readonly string[]): string => {
    const [file, argv] = command(args);
    const result = spawnSync(file, argv, {
      encoding: 'utf8',
      ...(asRoot ? {} : { env }),
      timeout: 60_000,
    });
    if (result.status !== 0) {
      throw new Error(`pg_autoctl ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
    }
    return result.stdout;
  };
  const monitorData = path.join(dir, 'monitor');
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const nodes: ClusterNode[] = [
    { name: 'node_1', port: port1, pgdata: path.join(dir, 'node1') },
    { name: 'node_2', port: port2, pgdata: path.join(dir, 'node2') },
  ];

  const state = (): { name: string; reported: string; assigned: string }[] => {
    const out = run(['show', 'state', '--pgdata', monitorData, '--json']);
    const rows = JSON.parse(out) as {
      nodename: string;
      current_group_state: string;
      assigned_group_state: string;
    }[];
    return rows.map((row) => ({
      name: row.nodename,
      reported: row.current_group_state,
      assigned: row.assigned_group_state,
    }));
  };
  const waitFor = async (what: string, done: () => boolean | Promise<boolean>) => {
    const deadline = performance.now() + STARTUP_WAIT_MS;
    for (;;) {
      try {
        if (await done()) return;
      } catch {
        // Not up yet: the monitor or a node may still be starting.
      }
      if (performance.now() > deadline)
        throw new Error(
          `local cluster: ${what} did not happen within ${STARTUP_WAIT_MS} ms (logs in ${dir})`,
        );
      await sleep(250);
    }
  };
  const settledPrimary = async (): Promise<ClusterNode> => {
    let primary: ClusterNode | undefined;
    await waitFor('one primary and one secondary', () => {
      const rows = state();
      const steady = rows.every((row) => row.reported === row.assigned);
      const primaries = rows.filter((row) => row.reported === 'primary');
      const secondaries = rows.filter((row) => row.reported === 'secondary');
      if (!steady || primaries.length !== 1 || secondaries.length !== 1) return false;
      primary = nodes.find((node) => node.name === primaries[0]!.name);
      return primary !== undefined;
    });
    return primary!;
  };
  const stop = async () => {
    for (const child of keepers) {
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
    }
    await Promise.all(
      keepers.map((child) =>
        child.exitCode !== null
          ? undefined
          : Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(20_000)]),
      ),
    );
    // Whatever a keeper left running (a keeper killed before it stopped its server).
    for (const pgdata of [monitorData, ...nodes.map((node) => node.pgdata)]) {
      if (!existsSync(path.join(pgdata, 'postmaster.pid'))) continue;
      const [file, argv] = asRoot
        ? [
            'runuser',
            ['-u', 'postgres', '--', path.join(PG_BIN, 'pg_ctl'), '-D', pgdata, '-m', 'immediate', 'stop'],
          ]
        : [path.join(PG_BIN, 'pg_ctl'), ['-D', pgdata, '-m', 'immediate', 'stop']];
      spawnSync(file, argv as string[], { stdio: 'ignore', timeout: 30_000 });
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    log(`monitor on 127.0.0.1:${monitorPort}`);
    keep('monitor', [
      'create',
      'monitor',
      '--pgdata',
      monitorData,
      '--pgport',
      String(monitorPort),
      '--hostname',
      '127.0.0.1',
      '--auth',
      'trust',
      '--no-ssl',
      '--run',
    ]);
    await waitFor('the monitor', () => (state(), true));
    // Health checks every second, a node unreachable for 3 s is failed over, and the standby waits
    // 3 s, not 30, for a lost primary to demote itself before it is promoted. The defaults suit
    // nodes across a network; on one machine a node that does not answer is gone. A primary cut off
    // from its standby cannot acknowledge a commit in the meantime: its replication is synchronous.
    psql(monitorPort, 'pg_auto_failover', [
      'ALTER SYSTEM SET pgautofailover.health_check_period = 1000',
      'ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000',
      'ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1',
      'ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500',
      'ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000',
      'ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 3000',
      'SELECT pg_reload_conf()',
    ]);
    const node = (n: ClusterNode) => [
      'create',
      'postgres',
      '--pgdata',
      n.pgdata,
      '--pgport',
      String(n.port),
      '--hostname',
      '127.0.0.1',
      '--name',
      n.name,
      '--dbname',
      dbname,
      '--monitor',
      monitorUrl,
      '--auth',
      'trust',
      '--no-ssl',
      '--run',
    ];
    log(`primary on 127.0.0.1:${port1}`);
    keep(nodes[0]!.name, node(nodes[0]!));
    await waitFor('the first node as primary', () =>
      state().some((row) => row.name === 'node_1' && row.reported === 'single'),
    );
    log(`standby on 127.0.0.1:${port2}`);
    keep(nodes[1]!.name, node(nodes[1]!));
    // The standby's base backup waits for a checkpoint, which an idle primary spreads over minutes.
    const checkpoints = setInterval(() => {
      try {
        psql(port1, 'postgres', ['CHECKPOINT']);
      } catch {
        // The next one will do.
      }
    }, 1_000);
    try {
      await settledPrimary();
    } finally {
      clearInterval(checkpoints);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  log('in sync');

  return {
    url: `postgres://postgres@127.0.0.1:${port1},127.0.0.1:${port2}/${dbname}?target_session_attrs=read-write`,
    dir,
    nodes,
    primary: settledPrimary,
    async performFailover() {
      run(['perform', 'failover', '--pgdata', monitorData]);
    },
    settled: settledPrimary,
    promoted: (node) =>
      waitFor(`${node.name} as primary`, () =>
        state().some((row) => row.name === node.name && ['primary', 'wait_primary'].includes(row.reported)),
      ),
    kill(node) {
      const keeper = keeperOf.get(node.name);
      if (keeper?.pid && keeper.exitCode === null) process.kill(-keeper.pid, 'SIGKILL');
      const pidFile = path.join(node.pgdata, 'postmaster.pid');
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        if (Number.isInteger(pid) && pid > 0) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone with its keeper.
          }
        }
      }
    },
    stop,
  };
}

/** Runs statements on a server of the cluster as the postgres superuser (trust on loopback). */
function psql(port: number, dbname: string, statements: readonly string[]): void {
  const result = spawnSync(
    path.join(PG_BIN, 'psql'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      dbname,
      '-qAt',
      '-v',
      'ON_ERROR_STOP=1',
      ...statements.flatMap((statement) => ['-c', statement]),
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (result.status !== 0) throw new Error(`psql on port ${port} failed: ${result.stderr}`);
}

function postgresIds(): { uid: number; gid: number } {
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('no postgres user on this machine');
  return { uid, gid };
}
