// CLIENTS sockets on the market WebSocket, spread evenly over the active pairs, each held open for
// DURATION_SEC. tick_delay is receive time minus the tick's `ts` (when the feed observed the
// price): feed, tick flush (up to TICK_FLUSH_INTERVAL_MS, 200 ms), bus and fan-out together.
// Client and server must share a clock: run it on the platform's machine.
//   k6 run load-tests/ws-subscribers.js
//   CLIENTS=1000 DURATION_SEC=60 k6 run load-tests/ws-subscribers.js
import ws from 'k6/ws';
import { check } from 'k6';
import { Counter, Rate, Trend } from 'k6/metrics';
import { activePairs, assertLoopback, envInt, WS_BASE_URL } from './lib/platform.js';

assertLoopback();

const CLIENTS = envInt('CLIENTS', 200, 10000);
const DURATION_SEC = envInt('DURATION_SEC', 30, 3600);
const TICK_DELAY_P99_MS = envInt('TICK_DELAY_P99_MS', 500, 60000);

const tickDelay = new Trend('tick_delay', true);
const ticksReceived = new Counter('ticks_received');
const connectFailed = new Rate('ws_connect_failed');

export const options = {
  scenarios: {
    subscribers: {
      executor: 'per-vu-iterations',
      vus: CLIENTS,
      iterations: 1,
      maxDuration: `${DURATION_SEC + 60}s`,
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    ws_connect_failed: ['rate<0.01'],
    ws_connecting: ['p(95)<1000'],
    tick_delay: [`p(99)<${TICK_DELAY_P99_MS}`],
    ticks_received: ['count>0'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  return { pairs: activePairs() };
}

export default function (data) {
  const pair = data.pairs[(__VU - 1) % data.pairs.length];
  let ticks = 0;
  let badMessages = 0;
  let res = null;
  try {
    res = ws.connect(
      `${WS_BASE_URL}/api/market/ws?pair=${pair}`,
      { tags: { name: 'market-ws' } },
      (socket) => {
        socket.on('message', (raw) => {
          const receivedAt = Date.now();
          let message;
          try {
            message = JSON.parse(raw);
          } catch {
            badMessages++;
            return;
          }
          if (message.pair !== pair || typeof message.ts !== 'number' || !(message.price > 0)) {
            badMessages++;
            return;
          }
          ticks++;
          ticksReceived.add(1);
          tickDelay.add(receivedAt - message.ts);
        });
        socket.setTimeout(() => socket.close(), DURATION_SEC * 1000);
      },
    );
  } catch {
    res = null;
  }
  const opened = res !== null && res.status === 101;
  connectFailed.add(!opened);
  if (!opened) return;
  check(ticks, { 'an open socket received ticks of its pair': (n) => n > 0 });
  check(badMessages, { 'every message is a tick of the pair asked for': (n) => n === 0 });
}
