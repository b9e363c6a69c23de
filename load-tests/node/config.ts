import { env, readEnv, ConfigError, type ConfigOf, type ConfigSpec } from '@updown/runtime';

/**
 * The only reader of the environment in the npm load scenarios. Variable names match the k6
 * scripts', so one command line works with either. Every size has an upper bound: a typo must not
 * turn into an unbounded run.
 */

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

const targetSpec = {
  BASE_URL: env.url(['http', 'https'], DEFAULT_BASE_URL),
  /** Load may only go to this machine unless this is set on purpose. */
  LOAD_ALLOW_REMOTE: env.bool(false),
};

const scenarioSpecs = {
  smoke: {
    // Loose by default: the smoke also runs in CI beside the rest of the suite (see the README).
    P95_MS: env.int(1_000, { min: 1, max: 60_000 }),
    P99_MS: env.int(3_000, { min: 1, max: 60_000 }),
  },
  'place-trades': {
    USERS: env.int(50, { min: 1, max: 10_000 }),
    RATE: env.int(50, { min: 1, max: 5_000 }),
    DURATION_SEC: env.int(60, { min: 1, max: 3_600 }),
    CONNECTIONS: env.int(100, { min: 1, max: 1_000 }),
    P95_MS: env.int(250, { min: 1, max: 60_000 }),
    P99_MS: env.int(500, { min: 1, max: 60_000 }),
  },
  'ws-subscribers': {
    CLIENTS: env.int(200, { min: 1, max: 10_000 }),
    DURATION_SEC: env.int(30, { min: 1, max: 3_600 }),
    TICK_DELAY_P99_MS: env.int(500, { min: 1, max: 60_000 }),
  },
  'expiry-storm': {
    TRADES: env.int(600, { min: 1, max: 50_000 }),
    USERS: env.int(30, { min: 1, max: 10_000 }),
    CONCURRENCY: env.int(32, { min: 1, max: 1_000 }),
    P95_MS: env.int(1_000, { min: 1, max: 60_000 }),
    P99_MS: env.int(2_000, { min: 1, max: 60_000 }),
    SETTLED_MS_MAX: env.int(5_000, { min: 1, max: 600_000 }),
    SETTLE_TIMEOUT_SEC: env.int(120, { min: 10, max: 3_600 }),
  },
} as const;

export type ScenarioName = keyof typeof scenarioSpecs;
export const SCENARIO_NAMES = Object.keys(scenarioSpecs) as ScenarioName[];

export type ScenarioConfig<N extends ScenarioName> = Omit<ConfigOf<typeof targetSpec>, 'BASE_URL'> &
  ConfigOf<(typeof scenarioSpecs)[N]> & { readonly BASE_URL: string };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * True for the loopback range only (127.0.0.0/8, localhost, ::1). Load tests here may not leave
 * the machine: any other address needs LOAD_ALLOW_REMOTE=1, set by someone who owns the target.
 */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function loadScenarioConfig<N extends ScenarioName>(
  scenario: N,
  source: Env = process.env,
): ScenarioConfig<N> {
  const spec: ConfigSpec = { ...targetSpec, ...scenarioSpecs[scenario] };
  const config = readEnv(spec, source) as Omit<ScenarioConfig<N>, 'BASE_URL'> & {
    readonly BASE_URL: string | undefined;
  };
  const baseUrl = (config.BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!config.LOAD_ALLOW_REMOTE && !isLoopback(baseUrl)) {
    throw new ConfigError([
      `BASE_URL ${baseUrl} is not a loopback address; load is only sent to this machine unless LOAD_ALLOW_REMOTE=1`,
    ]);
  }
  return { ...config, BASE_URL: baseUrl } as ScenarioConfig<N>;
}

export function isScenarioName(name: string | undefined): name is ScenarioName {
  return name !== undefined && (SCENARIO_NAMES as string[]).includes(name);
}
