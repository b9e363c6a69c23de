import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { codeForStatus } from './error-status';
import { escapeJsonForHtml } from './json-escape';
import { ROUTE_REJECTED, type HttpMetrics } from './metrics';
import { genReqId, logAnswer, REQUEST_ID_HEADER, requestIdFrom } from './request-context';
import { BARE_ERROR_HEADERS } from './security';

/**
 * Requests Node answers, or drops, without ever handing them to Fastify: a request its parser
 * refuses (`clientError`), an `Expect` it cannot meet, a `CONNECT`. Each gets an answer in the
 * API's shape with the strict headers and a request id, one `request completed` line and one count
 * under the route `rejected` (see refusals.ts for the answers Fastify gives outside its hooks, and
 websocket.ts for the handshakes `ws` refuses).
 */

/** The first bytes of a refused request read for its method, target and request id. */
const PACKET_READ_BYTES_MAX = 8 * 1024;
/** A refused target is logged up to this length: an over-long URL is the usual reason for refusing it. */
const TARGET_LOGGED_MAX = 512;
/** Longer than any method; a refused request line may start with anything. */
const METHOD_LOGGED_MAX = 32;

/** What the parser's error codes mean for the client, as Node's own default answers say it. */
function parserStatus(code: string | undefined): number {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413;
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    default:
      return 400;
  }
}

const DETAILS: Readonly<Record<number, string>> = {
  400: 'Malformed HTTP request',
  405: 'CONNECT is not supported',
  408: 'The request took too long to arrive',
  413: 'Chunk extensions too large',
  417: 'Only the expectation 100-continue is supported',
  431: 'Request line and headers too large',
};

/** The bytes of a complete answer in the API's shape, for a socket no response object owns. */
export function rawAnswer(status: number, requestId: string): string {
  const body = errorBody(status);
  const headers = { ...answerHeaders(requestId, body), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${body}`;
}

function errorBody(status: number): string {
  const detail = DETAILS[status] ?? STATUS_CODES[status] ?? 'Bad Request';
  return escapeJsonForHtml(JSON.stringify({ detail, code: codeForStatus(status) }));
}

function answerHeaders(requestId: string, body: string): Record<string, string> {
  return {
    ...BARE_ERROR_HEADERS,
    [REQUEST_ID_HEADER]: requestId,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  };
}

interface RefusedPacket {
  readonly method: string;
  readonly target: string;
  readonly requestId: string;
}

/**
 * The method, target and request id of a request the parser refused, read from its first bytes
 * (`rawPacket`) as well as they can be: a malformed packet yields blanks and a fresh id. The
 * target is cut to a length fit for a log line.
 */
export function describePacket(rawPacket: unknown): RefusedPacket {
  const head = Buffer.isBuffer(rawPacket)
    ? rawPacket.subarray(0, PACKET_READ_BYTES_MAX).toString('latin1')
    : '';
  const [method = '', target = ''] = (head.split(/\r?\n/, 1)[0] ?? '').split(' ');
  const incomingId = /\nx-request-id:[ \t]*([^\r\n]*)/i.exec(head)?.[1]?.trim();
  return {
    method: method.slice(0, METHOD_LOGGED_MAX),
    target: target.length > TARGET_LOGGED_MAX ? `${target.slice(0, TARGET_LOGGED_MAX)}…` : target,
    requestId: requestIdFrom(incomingId),
  };
}

interface ConnectionError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/** Node keeps the response being written on a connection here (private, but what Node itself checks). */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Fastify's `clientErrorHandler`: the answer to a request Node's parser refused (bad request line,
 * bad header, headers over `maxHeaderSize`, request slower than `requestTimeout`). As Node does by
 * default, nothing is written on a reset or closed connection, nor in the middle of another answer.
 */
export function parserErrorAnswer(metrics: HttpMetrics) {
  return function answerParserError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
    const inFlight = (socket as HttpSocket)._httpMessage;
    if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const status = parserStatus(error.code);
    const packet = describePacket(error.rawPacket);
    socket.end(rawAnswer(status, packet.requestId), () => socket.destroy());
    record(metrics, this.log.child({ reqId: packet.requestId }), {
      method: packet.method,
      url: packet.target,
      status,
      reason: error.code,
    });
  };
}

function record(
  metrics: HttpMetrics,
  log: FastifyBaseLogger,
  answer: { method: string; url: string; status: number; reason: string | undefined },
): void {
  metrics.record({ method: answer.method, route: ROUTE_REJECTED, statusCode: answer.status }, 0);
  logAnswer(log, {
    method: answer.method,
    url: answer.url,
    route: ROUTE_REJECTED,
    statusCode: answer.status,
    responseTimeMs: 0,
    ...(answer.reason === undefined ? {} : { reason: answer.reason }),
  });
}

/**
 * Node answers an `Expect` other than 100-continue with a bare 417, and drops a `CONNECT` (this is
 * no proxy) by closing the socket, both without telling anyone. With listeners for the two events,
 * each gets an answer in the API's shape and leaves a trace. Call once on the app's server.
 */
export function registerServerRefusals(server: Server, metrics: HttpMetrics, log: FastifyBaseLogger): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const requestId = genReqId(request);
    const body = errorBody(417);
    response.shouldKeepAlive = false;
    response.writeHead(417, answerHeaders(requestId, body)).end(body);
    record(metrics, log.child({ reqId: requestId }), {
      method: request.method ?? '',
      url: request.url ?? '',
      status: 417,
      reason: 'EXPECTATION_FAILED',
    });
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    // Node hands the socket over with no error listener of its own.
    socket.on('error', () => socket.destroy());
    const requestId = genReqId(request);
    socket.end(rawAnswer(405, requestId), () => socket.destroy());
    record(metrics, log.child({ reqId: requestId }), {
      method: 'CONNECT',
      url: request.url ?? '',
      status: 405,
      reason: 'CONNECT',
    });
  });
}
