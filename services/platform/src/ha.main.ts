import { fileURLToPath } from 'node:url';
import { ConfigError, createLogger, failureText } from '@updown/runtime';
import { buildConsoleIfStale } from './console-build';
import { loadPlatformConfigOn } from './config';
import { localClusterUnavailable, startLocalCluster } from './ha/local-cluster';
import { startPlatform } from './platform';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * `npm run start:ha`: a pg_auto_failover cluster on this machine (a monitor, a primary and a
 * synchronous standby, ha/local-cluster.ts) and the whole platform on it, as `npm start` runs it
 * otherwise. The cluster lives in a temporary folder and goes with the platform when it stops: it
 * is for seeing a failover (`pg_autoctl perform failover`, or a kill of the primary) from the
 * platform's side, not for keeping data. Exits 1, naming why, when pg_auto_failover is missing.
 */
async function main(): Promise<void> {
  const unavailable = localClusterUnavailable();
  if (unavailable) {
    console.error(`start:ha needs pg_auto_failover: ${unavailable}`);
    process.exit(1);
  }
  const bootLogger = createLogger({ level: 'info', name: 'updown-ha' });
  const cluster = await startLocalCluster({ name: 'start', log: (line) => bootLogger.info(line) });
  let platform;
  try {
    const config = loadPlatformConfigOn(cluster.url);
    const logger = createLogger({ level: config.LOG_LEVEL, name: 'updown' });
    buildConsoleIfStale({ repoRoot: REPO_ROOT, consoleDir: config.CONSOLE_DIR, logger });
    platform = await startPlatform(config, { logger });
  } catch (error) {
    await cluster.stop();
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const [node1, node2] = cluster.nodes;
  bootLogger.info(
    {
      databaseUrl: cluster.url,
      dir: cluster.dir,
      failover: `pg_autoctl perform failover --pgdata ${cluster.dir}/monitor (as postgres, with XDG_CONFIG_HOME=${cluster.dir}/config XDG_DATA_HOME=${cluster.dir}/data)`,
    },
    `platform on pg_auto_failover: ${node1!.name} 127.0.0.1:${node1!.port}, ${node2!.name} 127.0.0.1:${node2!.port}`,
  );
  platform.lifecycle.add('pg_auto_failover cluster', () => cluster.stop());
  platform.lifecycle.handleSignals();
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
