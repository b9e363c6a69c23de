import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, createLogger, resolveSigningKey } from '@updown/runtime';
import { loadOrderConfig } from '@updown/order';
import { loadPriceIngestConfig } from '@updown/price-ingest';
import { loadSettlementConfig } from '@updown/settlement';
import { metricsConfigProblems } from '@updown/gateway';
import { loadGatewayStandaloneConfig } from '@updown/platform';
import { loadPlatformConfig } from '@updown/platform';
import { REPO_ROOT } from './metric-catalog';

/**
 * docker-compose.yml as Compose itself reads it (`config -q`), and the promises the stack makes:
 * healthchecks everywhere, start order by health, every service scraped, every service's
 * environment accepted by its own config loader, and no local-only default that production takes.
 */

const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[] | string; interval?: string; retries?: number };
  restart?: string;
  depends_on?: Record<string, { condition?: string }> | string[];
}

const compose = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = Object.entries(compose.services);
/** Services that run to completion (the migration job) rather than serve: no healthcheck, waited on by exit. */
const ONE_SHOT_JOBS = new Set(['migrate']);

/** The Compose CLI on this machine: the v2 plugin, else the standalone `docker-compose`. */
function composeCli(): string[] | undefined {
  const works = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    return result.error === undefined && result.status === 0;
  };
  if (works('docker', ['compose', 'version'])) return ['docker', 'compose'];
  if (works('docker-compose', ['version'])) return ['docker-compose'];
  return undefined;
}

/**
 * The value Compose gives `${NAME:-default}` when NAME is unset: the stack's defaults, independent
 * of whatever the machine running the test has in its environment.
 */
function withDefaults(value: string | number): string {
  return String(value).replace(
    /\$\{[A-Z_]+(?::?-([^}]*))?\}/g,
    (_match, fallback: string | undefined) => fallback ?? '',
  );
}

function environmentOf(name: string, overrides: Record<string, string> = {}): Record<string, string> {
  const environment = compose.services[name]?.environment ?? {};
  return {
    ...Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, withDefaults(value)])),
    ...overrides,
  };
}

/**
 * Compose runs `node --import tsx <file>` where the npm script runs `tsx <file>`: the same program,
 * with node itself receiving the container's SIGTERM (npm does not pass it on).
 */
function runsScript(service: ComposeService, script: string | undefined): boolean {
  const file = /^tsx (\S+\.ts)$/.exec(script ?? '')?.[1];
  return (
    file !== undefined &&
    JSON.stringify(service.command) === JSON.stringify(['node', '--import', 'tsx', file])
  );
}

const prometheus = parse(
  readFileSync(path.join(REPO_ROOT, 'infra', 'prometheus', 'prometheus.yml'), 'utf8'),
) as {
  scrape_configs: {
    job_name: string;
    static_configs?: { targets: string[] }[];
    dns_sd_configs?: { names: string[]; port: number }[];
  }[];
};

const gatewayConfig = () => loadGatewayStandaloneConfig(environmentOf('gateway'));

function problemsOf(load: () => unknown): string[] {
  try {
    load();
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
}

/** The four services, where each one listens, and how its config loader reads that. */
const APP_SERVICES = {
  gateway: {
    script: 'start:gateway',
    port: 8080,
    address: () => {
      const c = loadGatewayStandaloneConfig(environmentOf('gateway'));
      return [c.HOST, c.PORT] as const;
    },
  },
  order: {
    script: 'start:order',
    port: 8083,
    address: () => {
      const c = loadOrderConfig(environmentOf('order'));
      return [c.ORDER_HOST, c.ORDER_PORT] as const;
    },
  },
  settlement: {
    script: 'start:settlement',
    port: 8082,
    address: () => {
      const c = loadSettlementConfig(environmentOf('settlement'));
      return [c.SETTLEMENT_HOST, c.SETTLEMENT_PORT] as const;
    },
  },
  'price-ingest': {
    script: 'start:price-ingest',
    port: 8081,
    address: () => {
      const c = loadPriceIngestConfig(environmentOf('price-ingest'));
      return [c.PRICE_INGEST_HOST, c.PRICE_INGEST_PORT] as const;
    },
  },
} as const;

describe('docker-compose.yml', () => {
  // A longer limit: the standalone docker-compose is a Python program that starts slowly on a busy machine.
  it('is valid for Compose itself, with and without the single-process profile', () => {
    const cli = composeCli();
    if (!cli) {
      throw new Error(
        'Neither `docker compose` nor `docker-compose` is installed; install one to validate the compose file (apt-get install -y docker-compose)',
      );
    }
    // A fixed environment: the file must be valid on its defaults, whatever this machine exports.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
    for (const profile of [[], ['--profile', 'single']]) {
      const [command, ...args] = cli;
      const result = spawnSync(command!, [...args, '-f', COMPOSE_FILE, ...profile, 'config', '-q'], {
        cwd: REPO_ROOT,
        env,
        encoding: 'utf8',
      });
      expect(
        `${result.stdout}${result.stderr}`.trim(),
        `${cli.join(' ')} ${profile.join(' ')} config -q`,
      ).toBe('');
      expect(result.status).toBe(0);
    }
  }, 60_000);

  it('gives every service a healthcheck and starts dependants only once what they need is healthy', () => {
    for (const [name, service] of services) {
      if (ONE_SHOT_JOBS.has(name)) continue;
      expect(service.healthcheck?.test, `${name} healthcheck`).toBeDefined();
      const dependsOn = service.depends_on ?? {};
      expect(Array.isArray(dependsOn), `${name} depends_on must name conditions`).toBe(false);
      for (const [dependency, spec] of Object.entries(dependsOn)) {
        expect(spec.condition, `${name} → ${dependency}`).toBe(
          ONE_SHOT_JOBS.has(dependency) ? 'service_completed_successfully' : 'service_healthy',
        );
        expect(compose.services[dependency], `${name} → ${dependency}`).toBeDefined();
      }
    }
    expect(Object.keys(compose.services.gateway?.depends_on ?? {})).toEqual(
      expect.arrayContaining(['postgres', 'kafka', 'order']),
    );
  });

  it("migrates an empty database once, with every package's migrations, before any service of the stack starts", () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const migrate = compose.services.migrate!;
    expect(runsScript(migrate, scripts['db:migrate']), 'migrate runs what db:migrate runs').toBe(true);
    expect(migrate.restart).toBe('no');
    expect(migrate.environment?.DATABASE_URL).toBe(compose.services.order?.environment?.DATABASE_URL);
    for (const name of Object.keys(APP_SERVICES)) {
      const dependsOn = compose.services[name]?.depends_on as Record<string, { condition?: string }>;
      expect(dependsOn.migrate?.condition, name).toBe('service_completed_successfully');
    }
  });

  it('pins every image to a version', () => {
    for (const [name, service] of services) {
      if (service.build !== undefined) continue;
      expect(service.image, name).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(service.image, name).not.toMatch(/:latest$/);
    }
    expect(compose.services.kafka?.image).toMatch(/^apache\/kafka:\d+\.\d+\.\d+$/);
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
  });

  it('runs each service from the one image as its npm script does, on Kafka, probing its own port', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    for (const [name, expected] of Object.entries(APP_SERVICES)) {
      const service = compose.services[name]!;
      expect(service.build, name).toBe('.');
      expect(runsScript(service, scripts[expected.script]), `${name} runs what ${expected.script} runs`).toBe(
        true,
      );
      expect(service.environment?.BUS, name).toBe('kafka');
      expect(service.environment?.KAFKA_BROKERS, name).toBe('kafka:9092');
      expect(String(service.healthcheck?.test), name).toContain(`http://127.0.0.1:${expected.port}/readyz`);
      expect(service.environment?.HEALTHCHECK_PORT, name).toBe(String(expected.port));
      // Read back through the service's own loader: a renamed variable shows up here.
      expect(expected.address(), name).toEqual(['0.0.0.0', expected.port]);
    }
    expect(compose.services.gateway?.environment?.ORDER_URL).toBe('http://order:8083');
    expect(compose.services.gateway?.ports).toEqual([expect.stringMatching(/:8080:8080$/)]);
    expect(compose.services.platform?.profiles).toEqual(['single']);
    expect(runsScript(compose.services.platform!, scripts.start), 'platform runs what npm start runs').toBe(
      true,
    );
    expect(problemsOf(() => loadPlatformConfig(environmentOf('platform')))).toEqual([]);
  });

  it('gives every service that signs or publishes keys one signing key, which production refuses', async () => {
    const keys = ['gateway', 'settlement', 'price-ingest'].map((name) => environmentOf(name).SIGNING_KEY);
    expect(keys[0]).toEqual(expect.any(String));
    expect(new Set(keys).size).toBe(1);
    const logger = createLogger({ level: 'silent', name: 'compose-test' });
    const config = (env: string) => ({
      UPDOWN_ENV: env,
      DATA_DIR: '/nonexistent',
      SIGNING_KEY: keys[0],
      SIGNING_KEYS_RETIRED: [],
    });
    expect((await resolveSigningKey(config('development'), logger)).kid).toEqual(expect.any(String));
    await expect(resolveSigningKey(config('production'), logger)).rejects.toThrow(/local-only key/);
  });

  it('has local-only defaults that a production start refuses', () => {
    const production = { UPDOWN_ENV: 'production' };
    const gateway = problemsOf(() => loadGatewayStandaloneConfig(environmentOf('gateway', production)));
    expect(gateway.some((p) => p.startsWith('JWT_SECRET'))).toBe(true);
    expect(gateway.some((p) => p.startsWith('SERVICE_TOKEN'))).toBe(true);
    expect(problemsOf(() => loadOrderConfig(environmentOf('order', production)))).toEqual([
      expect.stringMatching(/^SERVICE_TOKEN/),
    ]);
    expect(problemsOf(() => loadPriceIngestConfig(environmentOf('price-ingest', production)))).toEqual([
      expect.stringMatching(/^PRICE_FEED_SEED/),
    ]);
  });

  it('has Prometheus scrape all four services where they serve /metrics, and mounts files that exist', () => {
    const targets = prometheus.scrape_configs.flatMap((job) =>
      (job.static_configs ?? []).flatMap((s) => s.targets),
    );
    for (const [name, expected] of Object.entries(APP_SERVICES)) {
      // The gateway serves /metrics on its own port (see the next test); the others on theirs.
      const port = name === 'gateway' ? gatewayConfig().METRICS_PORT : expected.port;
      expect(targets, name).toContain(`${name}:${port}`);
    }
    for (const [name, service] of services) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./'))
          expect(existsSync(path.join(REPO_ROOT, source)), `${name}: ${source}`).toBe(true);
      }
    }
    expect(compose.services.prometheus?.volumes).toContain('./infra/prometheus:/etc/prometheus:ro');
    expect(compose.services.grafana?.volumes).toEqual(
      expect.arrayContaining([
        './infra/grafana/provisioning:/etc/grafana/provisioning:ro',
        './infra/grafana/dashboards:/etc/grafana/dashboards:ro',
      ]),
    );
  });
});

describe('/metrics in the stack', () => {
  it('is off the published port of the gateway and the single process, where Prometheus scrapes it', () => {
    const platform = loadPlatformConfig(environmentOf('platform'));
    for (const [name, config] of [
      ['gateway', gatewayConfig()],
      ['platform', platform],
    ] as const) {
      expect(config.METRICS_PORT, name).toEqual(expect.any(Number));
      expect(config.METRICS_PORT, name).not.toBe(config.PORT);
      // Listening on the container's network, for Prometheus in its own container.
      expect(config.METRICS_HOST, name).toBe('0.0.0.0');
      for (const published of compose.services[name]?.ports ?? []) {
        expect(published, `${name} publishes only its public port`).toMatch(new RegExp(`:${config.PORT}$`));
      }
    }
    const platformJob = prometheus.scrape_configs.find((job) => job.job_name === 'platform');
    expect(platformJob?.dns_sd_configs?.[0]?.port).toBe(platform.METRICS_PORT);
  });

  it('is what production asks for, so the stack starts with UPDOWN_ENV=production', () => {
    const production = { UPDOWN_ENV: 'production' };
    for (const name of ['gateway', 'platform']) {
      expect(metricsConfigProblems(environmentOf(name, production)), name).toEqual([]);
    }
    // Without the port, production would refuse to start.
    const open = environmentOf('gateway', { ...production, METRICS_PORT: '' });
    expect(metricsConfigProblems(open)).toEqual([expect.stringMatching(/^METRICS_TOKEN or METRICS_PORT/)]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
    dependencies?: Record<string, string>;
  };

  it('copies every workspace manifest into both stages before installing', () => {
    expect(stages).toHaveLength(2);
    for (const stage of stages) {
      const install = stage.indexOf('RUN npm ci');
      expect(install).toBeGreaterThan(0);
      for (const workspace of pkg.workspaces) {
        const copy = stage.indexOf(`COPY ${workspace}/package.json ${workspace}/`);
        expect(copy, `${workspace} in stage ${stage.split('\n')[0]}`).toBeGreaterThan(0);
        expect(copy, workspace).toBeLessThan(install);
      }
    }
  });

  it('runs production dependencies only, as an unprivileged user, with tsx among them', () => {
    const runtime = stages[1]!;
    expect(runtime).toContain('RUN npm ci --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain('COPY --from=build /app/console/dist console/dist');
    expect(runtime).toMatch(/^HEALTHCHECK [^\n]*\\\n\s+CMD [^\n]*process\.env\.HEALTHCHECK_PORT/m);
    expect(
      pkg.dependencies?.tsx,
      'tsx must be a production dependency: the services run through it',
    ).toBeDefined();
  });

  it('keeps local state and dependencies out of the build context', () => {
    const ignored = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', '.data', '**/dist', 'test-results', 'bench/results', '.git']) {
      expect(ignored, entry).toContain(entry);
    }
  });
});
