import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { GatewayInstance } from './instance';
import { rawAnswer } from './parser-refusals';
import { genReqId } from './request-context';

/** Largest frame a WebSocket client may send; the price feed's clients send nothing at all. */
export const WS_MAX_PAYLOAD_BYTES = 64 * 1024;
/** At shutdown, how long a socket gets to finish its close handshake before it is cut. */
export const WS_CLOSE_GRACE_MS = 1_000;

/** Fastify's id of each upgrade request, for a refusal written on the raw socket (below). */
const requestIds = new WeakMap<IncomingMessage, string>();

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
  app.addHook('onRequest', async (request) => {
    if (request.headers.upgrade !== undefined) requestIds.set(request.raw, request.id);
  });
  app.addHook('onReady', async function () {
    watchHandshakes(this);
  });
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

/**
 * The status each upgrade's handshake ended with. `ws` writes its 101, or its refusal, on the
 * socket itself, after Fastify has handed the request over (a hijacked reply), so neither is seen
 * by `onResponse`; refusals.ts logs and counts the upgrade when its socket closes, with this status.
 */
const handshakeStatus = new WeakMap<IncomingMessage, number>();
/**
 * Without a listener `ws` refuses a bad handshake itself; with one, the refusal is written here in
 * the API's shape with the request id. Its message is all `ws` passes on; a method other than GET
 * is its one 405.
 */
const WS_METHOD_REFUSED = 'Invalid HTTP method';
/**
 * A handshake `ws` refused without asking: this app sets neither a path nor `verifyClient`, so
 * that is the refusal while shutting down.
 */
const HANDSHAKE_REFUSED_CLOSING = 503;

function watchHandshakes(app: GatewayInstance): void {
  app.websocketServer.on('headers', (_headers: string[], request: IncomingMessage) => {
    handshakeStatus.set(request, 101);
  });
  app.websocketServer.on('wsClientError', (error: Error, socket: Duplex, request: IncomingMessage) => {
    const status = error.message === WS_METHOD_REFUSED ? 405 : 400;
    handshakeStatus.set(request, status);
    socket.on('error', () => socket.destroy());
    socket.end(rawAnswer(status, requestIdOf(request)), () => socket.destroy());
  });
}

/** The status an upgrade ended with, for a request whose reply `@fastify/websocket` hijacked. */
export function upgradeStatus(request: FastifyRequest): number | undefined {
  if (!request.ws) return undefined;
  return handshakeStatus.get(request.raw) ?? HANDSHAKE_REFUSED_CLOSING;
}

function requestIdOf(request: IncomingMessage): string {
  return requestIds.get(request) ?? genReqId(request);
}
