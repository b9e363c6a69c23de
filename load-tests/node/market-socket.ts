import WebSocket from 'ws';
import type { LivePriceMessage } from '@updown/schemas/api';
import type { Recorder } from './metrics';

/**
 * One client of the market WebSocket. Tick delay is receive time minus the tick's `ts` (when the
 * feed observed the price): the whole path from the feed through the bus and the fan-out to this
 * socket. It needs the client's clock to be the server's, which holds on one machine (and for
 * Docker containers, which share the host's clock).
 */

export const CONNECT_TIMEOUT_MS = 10_000;
export const CLOSE_TIMEOUT_MS = 5_000;

export function marketSocketUrl(baseUrl: string, pair: string): string {
  const url = new URL(`/api/market/ws?pair=${encodeURIComponent(pair)}`, baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export class MarketClient {
  ticksReceived = 0;
  badMessages = 0;
  closedByServer = false;
  private socket: WebSocket | undefined;
  private closing = false;

  constructor(
    private readonly recorder: Recorder,
    readonly pair: string,
  ) {}

  /** Resolves true once open; false (and records a failed connect) on error, refusal or timeout. */
  connect(baseUrl: string): Promise<boolean> {
    const started = performance.now();
    const socket = new WebSocket(marketSocketUrl(baseUrl, this.pair), {
      handshakeTimeout: CONNECT_TIMEOUT_MS,
    });
    this.socket = socket;
    // Errors after the outcome is known (a reset, a late failure) show up as the close that follows.
    socket.on('error', () => undefined);
    socket.on('message', (data) => this.onMessage(data));
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean) => {
        if (settled) return;
        settled = true;
        this.recorder.rate('ws_connect_failed').add(!ok);
        if (ok) this.recorder.trend('ws_connecting').add(performance.now() - started);
        resolve(ok);
      };
      socket.once('open', () => {
        socket.on('close', () => {
          if (!this.closing) {
            this.closedByServer = true;
            this.recorder.counter('ws_unexpected_close').add();
          }
        });
        settle(true);
      });
      socket.once('error', () => settle(false));
      socket.once('unexpected-response', (request) => {
        request.destroy();
        settle(false);
      });
    });
  }

  private onMessage(data: WebSocket.RawData): void {
    const receivedAt = Date.now();
    let message: LivePriceMessage;
    try {
      message = JSON.parse(data.toString()) as LivePriceMessage;
    } catch {
      this.badMessages++;
      return;
    }
    if (message.pair !== this.pair || typeof message.ts !== 'number' || !(message.price > 0)) {
      this.badMessages++;
      return;
    }
    this.ticksReceived++;
    this.recorder.counter('ticks_received').add();
    this.recorder.trend('tick_delay').add(receivedAt - message.ts);
  }

  /** Closes normally, and cuts the connection if the server has not answered the close in time. */
  close(): Promise<void> {
    const socket = this.socket;
    this.closing = true;
    if (socket === undefined || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        socket.terminate();
        resolve();
      }, CLOSE_TIMEOUT_MS);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000, 'load test done');
    });
  }
}
