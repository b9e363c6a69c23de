import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, env, readEnv, runtimeConfigSpec, type ConfigOf, type Reader } from '@updown/runtime';
import { authConfigProblems, authConfigSpec } from './auth/auth.config';
import { identityConfigSpec } from './identity/identity.config';
import { disputesConfigSpec } from './receipts/disputes.config';

/** The repository root, so default paths do not depend on the directory the process starts in. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const MIB = 1024 * 1024;
/** The shortest `METRICS_TOKEN` production accepts, as for the other shared secrets. */
export const METRICS_TOKEN_LENGTH_MIN = 32;

/**
 * `API_DOCS`: whether `/docs` serves the OpenAPI and AsyncAPI documents and the browsable page.
 * Public by default, production included: the same document is checked in as
 * `schemas/openapi.json` and is what clients are generated from, and every route's protection is
 * its own authorization, never an unlisted path. `off` answers 404 there.
 */
export const API_DOCS_MODES = ['public', 'off'] as const;
export type ApiDocsMode = (typeof API_DOCS_MODES)[number];

/** A directory path; relative values are taken from the working directory, as a shell would. */
function directory(fallback: string): Reader<string> {
  return {
    describe: 'directory',
    read: (_name, raw) => (raw !== undefined && raw.trim() !== '' ? path.resolve(raw.trim()) : fallback),
  };
}

/** A port that may be left unset: the feature it opens is then off. */
function optionalPort(): Reader<number | undefined> {
  const port = env.port(0);
  return {
    describe: 'port',
    read: (name, raw) => (raw === undefined || raw.trim() === '' ? undefined : port.read(name, raw)),
  };
}

/** A token sent as `Authorization: Bearer <token>`: surrounding blanks are not part of it. */
function bearerToken(): Reader<string | undefined> {
  return { describe: 'token', read: (_name, raw) => raw?.trim() || undefined };
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
  API_DOCS: env.oneOf(API_DOCS_MODES, 'public'),
  /**
   * The reverse proxies in front of the gateway (addresses or CIDR ranges), whose
   * `X-Forwarded-For` names the client. Empty, the client is the socket's peer: behind a proxy,
   * every client would be the proxy. See `proxyProblems` for why "trust everyone" is refused.
   */
  TRUST_PROXY: env.list(),
  /**
   * `/metrics` answers only a scrape sending `Authorization: Bearer <METRICS_TOKEN>`. Unset, it is
   * open (on the public port unless METRICS_PORT is set); production needs one or the other.
   */
  METRICS_TOKEN: bearerToken(),
  /** `/metrics` moves off the public port to a listener of its own on METRICS_HOST:METRICS_PORT. */
  METRICS_PORT: optionalPort(),
  /** Loopback by default: only a scraper on the same host (or container) reaches it. */
  METRICS_HOST: env.string('127.0.0.1'),
  ...authConfigSpec,
  ...identityConfigSpec,
  ...disputesConfigSpec,
};

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec>;

export function loadGatewayConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): GatewayConfig {
  // The list reader never fails, so origins are checked even when other variables are bad:
  // one start-up error names every problem.
  const problems = [
    ...originProblems(gatewayConfigSpec.CORS_ORIGINS.read('CORS_ORIGINS', source.CORS_ORIGINS)),
    ...proxyProblems(gatewayConfigSpec.TRUST_PROXY.read('TRUST_PROXY', source.TRUST_PROXY)),
  ];
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

const PROXY_ENTRY = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f]*:[0-9a-f:.]*)(\/\d{1,3})?$/i;

/**
 * Each `TRUST_PROXY` entry must be an address or a CIDR range. Words Fastify would also take
 * (`true`, a hop count, `loopback`) are refused on purpose: believing whatever `X-Forwarded-For`
 * says lets any client name its own address, and every per-address rule (the sign-in throttle, the
 * per-IP ceilings) would count what it chose.
 */
export function proxyProblems(entries: readonly string[]): string[] {
  return entries
    .filter((entry) => !PROXY_ENTRY.test(entry))
    .map(
      (entry) =>
        `TRUST_PROXY must list the proxies' addresses or CIDR ranges (such as 10.0.0.0/8), not "${entry}"`,
    );
}

/** The raw variables, as the environment holds them. */
interface MetricsExposure {
  readonly UPDOWN_ENV?: string | undefined;
  readonly METRICS_TOKEN?: string | undefined;
  readonly METRICS_PORT?: string | undefined;
}

/**
 * `/metrics` names routes, users' activity and the process's internals: in production it must not
 * be public on the trading port. Checked by the processes' own loaders (`npm start`, the gateway
 * alone) from the raw values, so the message comes with every other bad variable. The token's
 * value is never echoed.
 */
export function metricsConfigProblems(source: MetricsExposure): string[] {
  if (source.UPDOWN_ENV?.trim() !== 'production') return [];
  const token = source.METRICS_TOKEN?.trim() ?? '';
  const port = source.METRICS_PORT?.trim() ?? '';
  if (token === '' && port === '') {
    return [
      'METRICS_TOKEN or METRICS_PORT is required when UPDOWN_ENV=production, so that /metrics is not public (generate a token: openssl rand -base64 48)',
    ];
  }
  if (token !== '' && token.length < METRICS_TOKEN_LENGTH_MIN) {
    return [`METRICS_TOKEN must be at least ${METRICS_TOKEN_LENGTH_MIN} characters in production`];
  }
  return [];
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
