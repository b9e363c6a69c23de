import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from '@updown/runtime';
import type { GatewayInstance } from './instance';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids from a proxy or client are kept for tracing, but only short plain tokens: no log injection. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The id a client or proxy sent when it is sane, else a fresh one. */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function genReqId(req: IncomingMessage): string {
  return requestIdFrom(req.headers[REQUEST_ID_HEADER]);
}

/** pino's level values: a logger writes a line at a level whose value is at least its own level's. */
const LEVEL_VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LineLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

function logs(log: FastifyBaseLogger, level: LineLevel): boolean {
  return (LEVEL_VALUES[log.level] ?? 0) <= LEVEL_VALUES[level]!;
}

/**
 * A request's logger, whose pino child (with the request id bound) is made only when a line is
 * written or a child asked for. pino serialises a child's bindings through the redaction paths
 * when it is made, a few kilobytes per request, and at warn most requests never write a line.
 */
class RequestLogger {
  #logger: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.#logger?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  silent(): void {}

  private write(level: LineLevel, args: unknown[]): void {
    if (!logs(this as unknown as FastifyBaseLogger, level)) return;
    (this.logger()[level] as (...line: unknown[]) => void)(...args);
  }

  private logger(): FastifyBaseLogger {
    // Options only when the route set some: pino's child takes a shorter path without them.
    this.#logger ??= this.parent.child(
      this.bindings,
      this.options.level === undefined && this.options.serializers === undefined ? undefined : this.options,
    );
    return this.#logger;
  }
}

/** Fastify's `childLoggerFactory`: see RequestLogger. */
export function requestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}

/** Probes and scrapes arrive every few seconds; at info they would drown the requests that matter. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** A refused scrape or probe (a wrong metrics token) is worth seeing at info. */
function isQuiet(request: FastifyRequest, reply: FastifyReply): boolean {
  return QUIET_ROUTES.has(request.routeOptions.url ?? '') && reply.statusCode < 400;
}

/**
 * The path without its query string, and the URL with every credential in its query redacted:
 * some calls carry secrets in the query (`POST /api/auth/refresh?refresh_token=…`), which must
 * never reach a log line, whatever the route.
 */
export function requestLocation(url: string): { path: string; url: string } {
  const end = url.indexOf('?');
  return { path: end === -1 ? url : url.slice(0, end), url: redactUrl(url) };
}

/**
 * The line every answer writes, for answers given outside the lifecycle. The request id comes with
 * the logger (`reqId`, as on Fastify's request loggers).
 */
export interface AnswerLine {
  readonly method: string;
  readonly url: string;
  readonly route: string;
  readonly statusCode: number;
  readonly responseTimeMs: number;
  /** Why it was refused, as the parser or router named it (`FST_ERR_BAD_URL`, `HPE_INVALID_METHOD`). */
  readonly reason?: string;
}

export function logAnswer(log: FastifyBaseLogger, line: AnswerLine, message = 'request completed'): void {
  const fields = {
    method: line.method,
    ...requestLocation(line.url),
    route: line.route,
    statusCode: line.statusCode,
    responseTimeMs: Math.round(line.responseTimeMs * 100) / 100,
    ...(line.reason === undefined ? {} : { reason: line.reason }),
  };
  if (line.statusCode >= 500) log.error(fields, message);
  else log.info(fields, message);
}

/**
 * Requests whose client left before the answer was complete. Their end is logged and counted once,
 * when the response closes unsent (see refusals.ts), and not again if the unfinished response
 * later fails.
 */
const abandoned = new WeakSet<FastifyRequest>();

export function markAbandoned(request: FastifyRequest): void {
  abandoned.add(request);
}

export function isAbandoned(request: FastifyRequest): boolean {
  return abandoned.has(request);
}

/**
 * One line per finished request (`request completed`, with method, path, route pattern, status and
 * duration); the `incoming request` line is only written at debug. Probe routes log at debug.
 * Answers given outside Fastify's lifecycle write the same line (see refusals.ts).
 */
export class GatewayLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!logs(request.log, 'debug')) return;
    request.log.debug(
      { method: request.method, ...requestLocation(request.raw.url ?? request.url) },
      'incoming request',
    );
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (isAbandoned(request)) return;
    const level = error ? 'error' : isQuiet(request, reply) ? 'debug' : 'info';
    // At warn (as in production and the benchmarks) most answers write no line: skip building one.
    if (!logs(reply.log, level)) return;
    const fields = {
      method: request.method,
      ...requestLocation(request.raw.url ?? request.url),
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log[level](fields, 'request completed');
  }

  override routeNotFound(): void {
    // The completion line already records the 404; a second line per miss is noise.
  }
}

/** Echoes the request id so a client or proxy can quote it when reporting a problem. */
export function registerRequestId(app: GatewayInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
