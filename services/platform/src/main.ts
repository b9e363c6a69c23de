import { fileURLToPath } from 'node:url';
import { ConfigError, createLogger, failureText } from '@updown/runtime';
import { buildConsoleIfStale } from './console-build';
import { loadPlatformConfig, type PlatformConfig } from './config';
import { startPlatform } from './platform';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * `npm start`: every Updown service in one Node process on the in-memory bus, with the console
 * served by the gateway (built first if it is missing or stale). Exits 1 with a message naming the
 * variable when the configuration is bad.
 */
async function main(): Promise<void> {
  let config: PlatformConfig;
  try {
    config = loadPlatformConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'updown' });
  buildConsoleIfStale({ repoRoot: REPO_ROOT, consoleDir: config.CONSOLE_DIR, logger });
  const platform = await startPlatform(config, { logger });
  platform.lifecycle.handleSignals();
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
