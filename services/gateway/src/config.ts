import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, env, readEnv, runtimeConfigSpec, type ConfigOf, type Reader } from '@updown/runtime';
import { authConfigProblems, authConfigSpec } from './auth/auth.config';

/** The repository root, so default paths do not depend on the directory the process starts in. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const MIB = 1024 * 1024;

/** A directory path; relative values are taken from the working directory, as a shell would. */
function directory(fallback: string): Reader<string> {
  return {
    describe: 'directory',
    read: (_name, raw) => (raw !== undefined && raw.trim() !== '' ? path.resolve(raw.trim()) : fallback),
  };
}

/**
 * The gateway's variables on top of the ones every process reads, so one `readEnv` call reports
 * every bad variable at once. This file is the only place in the gateway that reads `process.env`.
 */
export const gatewayConfigSpec = {
  ...runtimeConfigSpec,
  PORT: env.port(8080),
  /** Loopback by default so a developer machine does not expose the API; containers set 0.0.0.0. */
  HOST: env.string('127.0.0.1'),
  /** The built console (`npm run build -w @updown/console`); a placeholder page is served until it exists. */
  CONSOLE_DIR: directory(path.join(REPO_ROOT, 'console', 'dist')),
  /** Origins allowed to call the API from a browser; empty means same-origin only. */
  CORS_ORIGINS: env.list(),
  BODY_LIMIT_BYTES: env.int(MIB, { min: 1024, max: 64 * MIB }),
  ...authConfigSpec,
};

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec>;

export function loadGatewayConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): GatewayConfig {
  // The list reader never fails, so origins are checked even when other variables are bad:
  // one start-up error names every problem.
  const problems = originProblems(gatewayConfigSpec.CORS_ORIGINS.read('CORS_ORIGINS', source.CORS_ORIGINS));
  try {
    const config = readEnv(gatewayConfigSpec, source);
    problems.push(...authConfigProblems(config));
    if (problems.length === 0) return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.unshift(...error.problems);
  }
  throw new ConfigError(problems);
}

/**
 * A CORS origin is compared as an exact string by browsers, so `https://app.example.com/` (with a
 * slash) or a bare host would silently never match. Reject those at start instead.
 */
function originProblems(origins: readonly string[]): string[] {
  return origins
    .filter((origin) => {
      try {
        const url = new URL(origin);
        return !['http:', 'https:'].includes(url.protocol) || url.origin !== origin;
      } catch {
        return true;
      }
    })
    .map(
      (origin) =>
        `CORS_ORIGINS entry "${origin}" must be an origin such as https://app.example.com (scheme, host, optional port, no path)`,
    );
}
