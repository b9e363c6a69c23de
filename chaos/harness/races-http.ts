import { Client } from 'undici';
import { ApiClient, type Transport } from '@updown/api-client';

/** The most connections one race opens: far above what a scenario needs, low enough for any machine. */
export const RACE_CONNECTIONS_MAX = 64;
/** A request in a race that takes longer than this is a hang, not a slow answer. */
const REQUEST_TIMEOUT_MS = 30_000;

/** One racer's request, sent on the connection it is given. */
export type Racer<T> = (api: ApiClient) => Promise<T>;

/**
 * Keep-alive connections to the gateway, each its own TCP socket carrying one request at a time and
 * an `ApiClient` over it. They are opened (and proven open with a health check) before a race
 * starts, so the racing requests leave together instead of queueing behind connection set-up.
 */
export class Connections {
  private constructor(
    private readonly sockets: readonly Client[],
    private readonly apis: readonly ApiClient[],
  ) {}

  static async open(baseUrl: string, count: number): Promise<Connections> {
    if (!Number.isInteger(count) || count < 1 || count > RACE_CONNECTIONS_MAX) {
      throw new RangeError(`between 1 and ${RACE_CONNECTIONS_MAX} connections, got ${count}`);
    }
    const sockets = Array.from(
      { length: count },
      () =>
        new Client(baseUrl, {
          pipelining: 1,
          keepAliveTimeout: 60_000,
          headersTimeout: REQUEST_TIMEOUT_MS,
          bodyTimeout: REQUEST_TIMEOUT_MS,
        }),
    );
    const connections = new Connections(
      sockets,
      sockets.map((socket) => new ApiClient(socketTransport(socket))),
    );
    try {
      const health = await connections.all(connections.apis.map(() => (api) => api.send('get', '/healthz')));
      const bad = health.find((answer) => answer.status !== 200);
      if (bad) throw new Error(`the gateway answered /healthz with ${bad.status}: ${bad.text}`);
    } catch (error) {
      await connections.close();
      throw error;
    }
    return connections;
  }

  get size(): number {
    return this.apis.length;
  }

  /** Sends one racer's request on connection `index`. */
  send<T>(index: number, racer: Racer<T>): Promise<T> {
    const api = this.apis[index];
    if (!api) throw new RangeError(`no connection ${index} of ${this.apis.length}`);
    return racer(api);
  }

  /** Sends `racers[i]` on connection `i`, all at once, and waits for every answer. */
  all<T>(racers: readonly Racer<T>[]): Promise<T[]> {
    if (racers.length > this.apis.length) {
      throw new RangeError(`${racers.length} requests for ${this.apis.length} connections`);
    }
    return Promise.all(racers.map((racer, index) => this.send(index, racer)));
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sockets.map((socket) => socket.close()));
  }
}

/** Requests on one kept-alive socket; a request's own timeout, when given, replaces the socket's. */
function socketTransport(socket: Client): Transport {
  return async (request) => {
    if (request.body instanceof FormData) throw new TypeError('a race connection sends JSON, not forms');
    const response = await socket.request({
      method: request.method,
      path: request.url,
      headers: request.headers,
      body: request.body,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    const text = await response.body.text();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, text, headers };
  };
}
