import { ConfigError } from '@updown/runtime';
import { isScenarioName, loadScenarioConfig, SCENARIO_NAMES, type ScenarioName } from './config';
import { SetupError } from './platform-client';
import { formatResult } from './report';
import { runExpiryStorm } from './scenarios/expiry-storm';
import { runPlaceTrades } from './scenarios/place-trades';
import { runSmoke } from './scenarios/smoke';
import { runWsSubscribers } from './scenarios/ws-subscribers';
import type { ScenarioResult } from './thresholds';

/**
 * `tsx load-tests/node/main.ts <scenario>` (the `npm run load:*` scripts). Exit 0 when every
 * threshold held, 1 when one was crossed, 2 when the run could not start or broke off.
 */

const log = (line: string) => console.error(`[load] ${line}`);

function run(scenario: ScenarioName): Promise<ScenarioResult> {
  switch (scenario) {
    case 'smoke': {
      const config = loadScenarioConfig('smoke');
      return runSmoke({ baseUrl: config.BASE_URL, p95Ms: config.P95_MS, p99Ms: config.P99_MS, log });
    }
    case 'place-trades': {
      const config = loadScenarioConfig('place-trades');
      return runPlaceTrades({
        baseUrl: config.BASE_URL,
        users: config.USERS,
        ratePerSec: config.RATE,
        durationSec: config.DURATION_SEC,
        connections: config.CONNECTIONS,
        p95Ms: config.P95_MS,
        p99Ms: config.P99_MS,
        log,
      });
    }
    case 'ws-subscribers': {
      const config = loadScenarioConfig('ws-subscribers');
      return runWsSubscribers({
        baseUrl: config.BASE_URL,
        clients: config.CLIENTS,
        durationSec: config.DURATION_SEC,
        tickDelayP99Ms: config.TICK_DELAY_P99_MS,
        log,
      });
    }
    case 'expiry-storm': {
      const config = loadScenarioConfig('expiry-storm');
      return runExpiryStorm({
        baseUrl: config.BASE_URL,
        trades: config.TRADES,
        users: config.USERS,
        concurrency: config.CONCURRENCY,
        p95Ms: config.P95_MS,
        p99Ms: config.P99_MS,
        settledMsMax: config.SETTLED_MS_MAX,
        settleTimeoutSec: config.SETTLE_TIMEOUT_SEC,
        log,
      });
    }
  }
}

async function main(): Promise<number> {
  const scenario = process.argv[2];
  if (!isScenarioName(scenario)) {
    console.error(`usage: tsx load-tests/node/main.ts <${SCENARIO_NAMES.join('|')}>`);
    return 2;
  }
  const started = performance.now();
  try {
    const result = await run(scenario);
    console.log(formatResult(result));
    log(`${scenario} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result.passed ? 0 : 1;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SetupError) {
      console.error(`${scenario}: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

// Exit explicitly: a run must end by itself even if a kept-alive connection is still open.
process.exit(
  await main().catch((error: unknown) => {
    console.error(error);
    return 2;
  }),
);
