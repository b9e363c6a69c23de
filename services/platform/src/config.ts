import { ConfigError, readEnv, type ConfigOf } from '@updown/runtime';
import { gatewayConfigSpec, loadGatewayConfig } from '@updown/gateway';

/**
 * The single process reads the union of every service's variables. Each service's own loader
 * still runs so its extra checks (CORS origins, secrets in production) apply here too.
 */
export const platformConfigSpec = {
  ...gatewayConfigSpec,
};

export type PlatformConfig = ConfigOf<typeof platformConfigSpec>;

export function loadPlatformConfig(source: Readonly<Record<string, string | undefined>> = process.env): PlatformConfig {
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
  collect(() => readEnv(platformConfigSpec, source));
  if (problems.length > 0) throw new ConfigError(problems);
  return readEnv(platformConfigSpec, source);
}
