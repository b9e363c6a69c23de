import { ConfigError, readEnv, type ConfigOf } from '@updown/runtime';
import {
  gatewayConfigSpec,
  loadGatewayConfig,
  marketConfigSpec,
  metricsConfigProblems,
} from '@updown/gateway';
import { loadPriceIngestConfig, priceIngestConfigSpec } from '@updown/price-ingest';
import { receiptConfigSpec } from '@updown/settlement';

/**
 * The single process reads the union of every service's variables. Each service's own loader
 * still runs so its extra checks (CORS origins, secrets and seeds in production, a protected
 * /metrics) apply here too, and one start-up error names every bad variable.
 */
export const platformConfigSpec = {
  ...gatewayConfigSpec,
  ...marketConfigSpec,
  ...priceIngestConfigSpec,
  ...receiptConfigSpec,
};

export type PlatformConfig = ConfigOf<typeof platformConfigSpec>;

export function loadPlatformConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): PlatformConfig {
  const problems: string[] = [];
  const collect = (load: () => unknown) => {
    try {
      load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const problem of error.problems) if (!problems.includes(problem)) problems.push(problem);
    }
  };
  collect(() => loadGatewayConfig(source));
  collect(() => loadPriceIngestConfig(source));
  collect(() => readEnv(platformConfigSpec, source));
  problems.push(...metricsConfigProblems(source));
  if (problems.length > 0) throw new ConfigError(problems);
  return readEnv(platformConfigSpec, source);
}

/**
 * The platform's configuration from the environment, on the database at `databaseUrl` whatever
 * `DATABASE_URL` says (`npm run start:ha` runs it on the cluster it started).
 */
export function loadPlatformConfigOn(databaseUrl: string): PlatformConfig {
  return loadPlatformConfig({ ...process.env, DATABASE_URL: databaseUrl });
}
