import websocket from '@fastify/websocket';
import type { GatewayInstance } from './instance';

/** Largest frame a WebSocket client may send; the price feed's clients send nothing at all. */
export const WS_MAX_PAYLOAD_BYTES = 64 * 1024;
/** At shutdown, how long a socket gets to finish its close handshake before it is cut. */
export const WS_CLOSE_GRACE_MS = 1_000;

/**
 * WebSocket support for every route that declares `websocket: true`. It must be registered on the
 * root before any route: the plugin handles every HTTP upgrade the server receives by routing it
 * through Fastify, and only routes and 404 handlers that inherited its hooks close an upgrade they
 * do not serve. Registered inside a feature plugin, an upgrade sent to any other path (`/healthz`,
 * an unknown URL) would leave its socket open, and shutdown would wait on it.
 *
 * At shutdown each socket is closed with 1001 (going away) and cut after a short grace, so a
 * client that stopped reading cannot hold the process open for the 30 s close timeout of `ws`.
 */
export function registerWebSocket(app: GatewayInstance): void {
  void app.register(websocket, {
    options: { maxPayload: WS_MAX_PAYLOAD_BYTES, perMessageDeflate: false },
    preClose(done) {
      for (const client of this.websocketServer.clients) {
        client.close(1001, 'Server shutting down');
        setTimeout(() => client.terminate(), WS_CLOSE_GRACE_MS).unref();
      }
      this.websocketServer.close();
      done();
    },
  });
}
