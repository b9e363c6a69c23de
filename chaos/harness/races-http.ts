import { Client } from 'undici';

/** The most connections one race opens: far above what a scenario needs, low enough for any machine. */
export const RACE_CONNECTIONS_MAX = 64;
/** A request in a race that takes longer than this is a hang, not a slow answer. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface HttpAnswer {
  readonly status: number;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  readonly body: unknown;
  readonly text: string;
}

export interface RequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly token?: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Keep-alive connections to the gateway, each its own TCP socket carrying one request at a time.
 * They are opened (and proven open with a health check) before a race starts, so the racing
 * requests leave together instead of queueing behind connection set-up.
 */
export class Connections {
  private constructor(private readonly clients: readonly Client[]) {}

  static async open(baseUrl: string, count: number): Promise<Connections> {
    if (!Number.isInteger(count) || count < 1 || count > RACE_CONNECTIONS_MAX) {
      throw new RangeError(`between 1 and ${RACE_CONNECTIONS_MAX} connections, got ${count}`);
    }
    const clients = Array.from(
      { length: count },
      () =>
        new Client(baseUrl, {
          pipelining: 1,
          keepAliveTimeout: 60_000,
          headersTimeout: REQUEST_TIMEOUT_MS,
          bodyTimeout: REQUEST_TIMEOUT_MS,
        }),
    );
    const connections = new Connections(clients);
    try {
      const health = await Promise.all(
        clients.map((client) => send(client, { method: 'GET', path: '/healthz' })),
      );
      const bad = health.find((answer) => answer.status !== 200);
      if (bad) throw new Error(`the gateway answered /healthz with ${bad.status}: ${bad.text}`);
    } catch (error) {
      await connections.close();
      throw error;
    }
    return connections;
  }

  get size(): number {
    return this.clients.length;
  }

  /** Sends one request on connection `index`. */
  send(index: number, spec: RequestSpec): Promise<HttpAnswer> {
    const client = this.clients[index];
    if (!client) throw new RangeError(`no connection ${index} of ${this.clients.length}`);
    return send(client, spec);
  }

  /** Sends `specs[i]` on connection `i`, all at once, and waits for every answer. */
  all(specs: readonly RequestSpec[]): Promise<HttpAnswer[]> {
    if (specs.length > this.clients.length) {
      throw new RangeError(`${specs.length} requests for ${this.clients.length} connections`);
    }
    return Promise.all(specs.map((spec, index) => this.send(index, spec)));
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((client) => client.close()));
  }
}

async function send(client: Client, spec: RequestSpec): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.token) headers.authorization = `Bearer ${spec.token}`;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  const response = await client.request({
    method: spec.method,
    path: spec.path,
    headers,
    body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
  });
  const text = await response.body.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: the raw text is kept for the assertion message.
  }
  return { status: response.statusCode, body, text };
}
