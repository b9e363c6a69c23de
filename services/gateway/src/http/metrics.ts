import { Type } from '@sinclair/typebox';
import { Counter, Histogram, type Registry } from '@updown/runtime';
import type { FastifyRequest } from 'fastify';
import type { GatewayInstance } from './instance';
import { errorResponses } from './responses';

const DURATION = 'updown_http_request_duration_seconds';
const TOTAL = 'updown_http_requests_total';
const LABELS = ['method', 'route', 'status_code'] as const;

/**
 * Fetches a metric already on the registry or creates it: in the single process several apps may
 * share one registry, and prom-client refuses a second metric of the same name.
 */
function getOrCreate<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

/**
 * Labels use the route pattern (`/api/trades/:id`), never the raw URL, and every request that
 * matched no route is `unmatched`, so a scanner probing random paths cannot grow the series count.
 */
function routeLabel(request: FastifyRequest): string {
  return request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
}

/** Records every request except scrapes of `/metrics` itself. Install on the root instance. */
export function registerHttpMetrics(app: GatewayInstance, registry: Registry): void {
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

  app.addHook('onResponse', async (request, reply) => {
    const route = routeLabel(request);
    if (route === '/metrics') return;
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    duration.observe(labels, reply.elapsedTime / 1000);
    total.inc(labels);
  });
}

/** `/metrics`: every series on the process registry, in Prometheus text format. */
export function registerMetricsRoute(app: GatewayInstance, registry: Registry): void {
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        tags: ['operations'],
        response: {
          200: {
            description: 'Every series, in the Prometheus text exposition format (version 0.0.4)',
            content: { 'text/plain': { schema: Type.String() } },
          },
          ...errorResponses(),
        },
      },
    },
    async (_request, reply) => {
      const body = await registry.metrics();
      return reply.type(registry.contentType).send(body);
    },
  );
}
