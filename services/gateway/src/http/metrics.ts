import { createHash, timingSafeEqual } from 'node:crypto';
import { METHODS } from 'node:http';
import { Type } from '@sinclair/typebox';
import { Counter, DomainError, Histogram, type Registry } from '@updown/runtime';
import type { FastifyRequest } from 'fastify';
import type { GatewayInstance } from './instance';
import { isAbandoned } from './request-context';
import { errorResponses } from './responses';

const DURATION = 'updown_http_request_duration_seconds';
const TOTAL = 'updown_http_requests_total';
const LABELS = ['method', 'route', 'status_code'] as const;

/** The route label of every request that matched no route: one series, however many paths are probed. */
export const ROUTE_UNMATCHED = 'unmatched';
/**
 * The route label of a request refused before routing: by Node's HTTP parser (a malformed request
 * line or header, headers too large, a request too slow) or by Fastify's router (a malformed
 * percent-encoding, a path parameter over its length).
 */
export const ROUTE_REJECTED = 'rejected';
/**
 * The status counted for a request whose client left before any answer was sent (nginx's
 * "client closed request"); it never goes out on the wire.
 */
export const STATUS_CLIENT_CLOSED = 499;

const KNOWN_METHODS: ReadonlySet<string> = new Set(METHODS);

/** Node's parser accepts only known methods, but a refused request line may hold any bytes. */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && KNOWN_METHODS.has(method) ? method : 'UNKNOWN';
}

export interface HttpAnswer {
  readonly method: string;
  readonly route: string;
  readonly statusCode: number;
}

/** The two HTTP series, for the hooks below and for answers given outside Fastify's lifecycle. */
export interface HttpMetrics {
  record(answer: HttpAnswer, durationSec: number): void;
}

/**
 * Fetches a metric already on the registry or creates it: in the single process several apps may
 * share one registry, and prom-client refuses a second metric of the same name.
 */
function getOrCreate<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export function createHttpMetrics(registry: Registry): HttpMetrics {
  const duration = getOrCreate(
    registry,
    DURATION,
    () =>
      new Histogram({
        name: DURATION,
        help: 'HTTP request latency from arrival to the last byte of the response',
        labelNames: LABELS,
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      }),
  );
  const total = getOrCreate(
    registry,
    TOTAL,
    () =>
      new Counter({ name: TOTAL, help: 'HTTP requests answered', labelNames: LABELS, registers: [registry] }),
  );
  return {
    record(answer, durationSec) {
      const labels = {
        method: methodLabel(answer.method),
        route: answer.route,
        status_code: String(answer.statusCode),
      };
      duration.observe(labels, durationSec);
      total.inc(labels);
    },
  };
}

/**
 * Labels use the route pattern (`/api/trades/:id`), never the raw URL, and every request that
 * matched no route is `unmatched`, so a scanner probing random paths cannot grow the series count.
 */
function routeLabel(request: FastifyRequest): string {
  return request.is404 ? ROUTE_UNMATCHED : (request.routeOptions.url ?? ROUTE_UNMATCHED);
}

export function answerOf(request: FastifyRequest, statusCode: number): HttpAnswer {
  return { method: request.method, route: routeLabel(request), statusCode };
}

/**
 * Records every answered request except scrapes of `/metrics` itself. Requests whose client left
 * first are recorded by `registerAbandonedRequests` (refusals.ts). Install on the root instance.
 */
export function registerHttpMetrics(app: GatewayInstance, metrics: HttpMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    if (routeLabel(request) === '/metrics' || isAbandoned(request)) return;
    metrics.record(answerOf(request, reply.statusCode), reply.elapsedTime / 1000);
  });
}

/**
 * `/metrics`: every series on the process registry, in Prometheus text format. With a token, the
 * scrape must send it as `Authorization: Bearer <token>`; anything else is a 401.
 */
export function registerMetricsRoute(app: GatewayInstance, registry: Registry, token?: string): void {
  const expected = token === undefined ? undefined : digest(token);
  app.get(
    '/metrics',
    {
      onRequest: async (request, reply) => {
        if (expected === undefined || bearerMatches(request.headers.authorization, expected)) return;
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new DomainError('UNAUTHORIZED', 'Metrics need the scrape token: Authorization: Bearer <token>');
      },
      schema: {
        summary: 'Prometheus metrics',
        description:
          'With `METRICS_TOKEN` set, the scrape must send `Authorization: Bearer <token>` (401 otherwise); with `METRICS_PORT` set, this route is served on that port only (README "Metrics").',
        tags: ['operations'],
        response: {
          200: {
            description: 'Every series, in the Prometheus text exposition format (version 0.0.4)',
            content: { 'text/plain': { schema: Type.String() } },
          },
          ...errorResponses(401),
        },
      },
    },
    async (_request, reply) => {
      const body = await registry.metrics();
      return reply.type(registry.contentType).send(body);
    },
  );
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Compares digests of equal length, so the time taken says nothing about how much of the token
 * a guess got right, nor about its length.
 */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const presented = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  return timingSafeEqual(digest(presented ?? ''), expected) && presented !== undefined;
}
