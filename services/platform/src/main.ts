import { ConfigError } from '@updown/runtime';
import { startPlatform } from './platform';
import { loadPlatformConfig } from './config';

/**
 * `npm start`: every Updown service in one Node process on the in-memory bus, with the console
 * served by the gateway. Exits 1 with a message naming the variable when the configuration is bad.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadPlatformConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const platform = await startPlatform(config);
  platform.lifecycle.handleSignals();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
