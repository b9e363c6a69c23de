import { MarketClient } from '../market-socket';
import { Recorder } from '../metrics';
import pMap from 'p-map';
import { activePairs, loadClient, sleep } from '../platform-client';
import { finishScenario, type ScenarioResult, type Thresholds } from '../thresholds';

/**
 * Many clients on the market WebSocket, spread evenly over the active pairs, held open for a
 * while. Measures the connect time and the tick delay (receive time minus the tick's `ts`) under
 * that fan-out.
 */

export interface WsSubscribersOptions {
  readonly baseUrl: string;
  readonly clients: number;
  readonly durationSec: number;
  readonly tickDelayP99Ms: number;
  readonly log?: (line: string) => void;
}

export function wsSubscribersThresholds(options: { tickDelayP99Ms: number }): Thresholds {
  return {
    http_req_failed: ['rate<0.01'],
    ws_connect_failed: ['rate<0.01'],
    ws_connecting: ['p(95)<1000'],
    tick_delay: [`p(99)<${options.tickDelayP99Ms}`],
    ticks_received: ['count>0'],
    checks: ['rate>0.99'],
  };
}

/** Handshakes in flight at once, so opening thousands of sockets is not one SYN flood. */
const CONNECT_CONCURRENCY = 50;

export async function runWsSubscribers(options: WsSubscribersOptions): Promise<ScenarioResult> {
  const log = options.log ?? (() => undefined);
  const recorder = new Recorder();
  const pairs = await activePairs(loadClient(recorder, options.baseUrl));
  const clients = Array.from(
    { length: options.clients },
    (_, index) => new MarketClient(recorder, pairs[index % pairs.length]!),
  );
  try {
    log(`opening ${clients.length} sockets over ${pairs.length} pairs`);
    const opened = await pMap(clients, (client) => client.connect(options.baseUrl), {
      concurrency: CONNECT_CONCURRENCY,
    });
    log(`${opened.filter(Boolean).length} open; holding them for ${options.durationSec} s`);
    await sleep(options.durationSec * 1000);
    for (const [index, client] of clients.entries()) {
      if (!opened[index]) continue;
      recorder.check('an open socket received ticks of its pair', client.ticksReceived > 0);
      recorder.check('an open socket stayed open', !client.closedByServer);
      recorder.check('every message is a tick of the pair asked for', client.badMessages === 0);
    }
    const ticks = recorder.counter('ticks_received').count;
    recorder.note(
      `${clients.length} clients, ${ticks} ticks received, ${(ticks / options.durationSec).toFixed(0)} messages/s`,
    );
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
  return finishScenario('ws-subscribers', recorder, wsSubscribersThresholds(options));
}
