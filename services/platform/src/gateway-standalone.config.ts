import { ConfigError, env, readEnv, type ConfigOf } from '@updown/runtime';
import { ORDER_CALL_TIMEOUT_MS_DEFAULT, serviceTokenProblems, serviceTokenSpec } from '@updown/order';
import {
  gatewayConfigSpec,
  loadGatewayConfig,
  marketConfigSpec,
  metricsConfigProblems,
} from '@updown/gateway';

/**
 * What the gateway reads when it runs as its own process (`npm run start:gateway`): its own
 * variables, the market socket's, and where the order service is with the token it expects.
 */
export const gatewayStandaloneConfigSpec = {
  ...gatewayConfigSpec,
  ...marketConfigSpec,
  ...serviceTokenSpec,
  ORDER_URL: env.url(['http', 'https'], 'http://127.0.0.1:8083'),
  ORDER_TIMEOUT_MS: env.int(ORDER_CALL_TIMEOUT_MS_DEFAULT, { min: 100, max: 60_000 }),
};

export type GatewayStandaloneConfig = ConfigOf<typeof gatewayStandaloneConfigSpec> & { ORDER_URL: string };

export function loadGatewayStandaloneConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): GatewayStandaloneConfig {
  const problems: string[] = [];
  try {
    loadGatewayConfig(source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  // Checked from the raw values so a token problem is reported even when other variables are bad.
  problems.push(
    ...serviceTokenProblems({
      UPDOWN_ENV: source.UPDOWN_ENV?.trim() ?? '',
      SERVICE_TOKEN: source.SERVICE_TOKEN,
    }),
    ...metricsConfigProblems(source),
  );
  try {
    const config = readEnv(gatewayStandaloneConfigSpec, source);
    if (problems.length === 0) return { ...config, ORDER_URL: config.ORDER_URL ?? 'http://127.0.0.1:8083' };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) if (!problems.includes(problem)) problems.push(problem);
  }
  throw new ConfigError(problems);
}
