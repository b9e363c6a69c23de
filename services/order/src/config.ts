import { ConfigError, env, readEnv, runtimeConfigSpec, type ConfigOf } from '@updown/runtime';

/**
 * The token the gateway presents to the order service when they run apart. Outside production both
 * default to this value so `npm run start:gateway` and `start:order` work together with no set-up;
 * production refuses it (see `serviceTokenProblems`).
 */
export const DEV_SERVICE_TOKEN = 'updown-local-service-token-not-for-production';
/** The shortest service token production accepts: 32 characters, 256 bits if random. */
export const SERVICE_TOKEN_LENGTH_MIN = 32;

/** The service token with its production rules, shared by the order service and the gateway. */
export const serviceTokenSpec = {
  /** Shared secret on the gateway → order seam (`Authorization: Bearer …`). */
  SERVICE_TOKEN: env.optionalString(),
};

export function serviceTokenProblems(config: {
  UPDOWN_ENV: string;
  SERVICE_TOKEN: string | undefined;
}): string[] {
  if (config.UPDOWN_ENV !== 'production') return [];
  const token = config.SERVICE_TOKEN;
  if (token === undefined) {
    return ['SERVICE_TOKEN is required when UPDOWN_ENV=production (generate one: openssl rand -base64 48)'];
  }
  if (token.length < SERVICE_TOKEN_LENGTH_MIN || token === DEV_SERVICE_TOKEN) {
    return [
      `SERVICE_TOKEN must be a secret of at least ${SERVICE_TOKEN_LENGTH_MIN} characters in production`,
    ];
  }
  return [];
}

/** The token in force: the configured one, else the development default. */
export function serviceToken(config: { SERVICE_TOKEN: string | undefined }): string {
  return config.SERVICE_TOKEN ?? DEV_SERVICE_TOKEN;
}

/** order's variables on top of the ones every process reads; the only file here that reads `process.env`. */
export const orderConfigSpec = {
  ...runtimeConfigSpec,
  ...serviceTokenSpec,
  /** The internal placement API with `/healthz`, `/readyz` and `/metrics`; loopback unless deployed. */
  ORDER_HOST: env.string('127.0.0.1'),
  ORDER_PORT: env.port(8083),
};

export type OrderConfig = ConfigOf<typeof orderConfigSpec>;

export function loadOrderConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): OrderConfig {
  const config = readEnv(orderConfigSpec, source);
  const problems = serviceTokenProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
