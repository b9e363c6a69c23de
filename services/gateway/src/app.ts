import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyPluginAsync, type FastifySchema } from 'fastify';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database, Logger, MigrationSet, Registry } from '@updown/runtime';
import { isAdminUrl } from '@updown/accounts';
import { REPO_ROOT, type GatewayConfig } from './config';
import { registerConsole, resolveConsoleRoot } from './http/console';
import { registerDocs } from './http/docs';
import { registerDrain } from './http/drain';
import { registerErrorHandler } from './http/error-handler';
import { databaseReadiness, registerHealthRoutes, type Readiness } from './http/health';
import type { GatewayInstance } from './http/instance';
import { registerJsonBody } from './http/json-body';
import { registerJsonEscape } from './http/json-escape';
import { createHttpMetrics, registerHttpMetrics, registerMetricsRoute } from './http/metrics';
import { parserErrorAnswer, registerServerRefusals } from './http/parser-refusals';
import {
  frameworkErrorAnswer,
  registerAbandonedRequests,
  registerHostRequired,
  registerPlainPaths,
} from './http/refusals';
import { GatewayLogController, genReqId, registerRequestId, requestLogger } from './http/request-context';
import { registerSecurity } from './http/security';
import { registerWebSocket } from './http/websocket';
import { ajvOptions, assertStrictBody, buildValidatorFactory } from './http/validation';

/**
 * A route module a later feature plugs in; it inherits the error handler, hooks and decorators.
 * Write it as a `FastifyPluginAsyncTypebox` so TypeBox schemas type `request.body` and replies.
 */
export type GatewayPlugin = FastifyPluginAsyncTypebox | FastifyPluginAsync;

export interface GatewayDeps {
  /**
   * Without `METRICS_PORT`, `/metrics` is served here (behind `METRICS_TOKEN` when set); with it,
   * `startGateway` serves it on its own listener and this app has no `/metrics`.
   */
  config: Pick<GatewayConfig, 'CONSOLE_DIR' | 'CORS_ORIGINS' | 'BODY_LIMIT_BYTES'> &
    Partial<Pick<GatewayConfig, 'METRICS_TOKEN' | 'METRICS_PORT' | 'TRUST_PROXY' | 'API_DOCS'>>;
  logger: Logger;
  registry: Registry;
  db: Kysely<Database>;
  /**
   * How `/readyz` decides: a probe of its own, or the migration sets that must all be applied, with
   * PostgreSQL answering (the composition root's list: the gateway does not know every package).
   */
  readiness: Readiness | { readonly migrations: readonly MigrationSet[] };
  /** Registered after the core, in order. */
  plugins?: readonly GatewayPlugin[];
}

export const PLACEHOLDER_DIR = path.join(REPO_ROOT, 'console', 'placeholder');

/** One route as registered: what the authorization matrix and the input fuzzer enumerate. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  readonly schema: FastifySchema | undefined;
  /** A WebSocket route (`GET` upgraded), not a plain HTTP one. */
  readonly websocket: boolean;
}

const routeTables = new WeakMap<object, RegisteredRoute[]>();

/**
 * Every route of an app built by `buildApp`, in registration order, without the HEAD twins
 * Fastify adds for GETs. Tests generate their cases from it, so a new route cannot go untested.
 */
export function registeredRoutes(app: GatewayInstance): readonly RegisteredRoute[] {
  const table = routeTables.get(app);
  if (!table) throw new Error('registeredRoutes needs an app built by buildApp');
  return table;
}

/**
 * The gateway's HTTP application, configured but not listening: `server.ts` listens, tests call
 * `app.inject()`. The order below matters: the error handler, hooks and docs collector are
 * installed on the root before any route so that every route, including `deps.plugins`, gets them.
 */
export function buildApp(deps: GatewayDeps): GatewayInstance {
  const httpMetrics = createHttpMetrics(deps.registry);
  const app = Fastify({
    // pino's Logger is wider than Fastify's base logger type; widening here keeps one instance type.
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new GatewayLogController(),
    genReqId,
    childLoggerFactory: requestLogger,
    bodyLimit: deps.config.BODY_LIMIT_BYTES,
    // `request.ip` is the client named by the listed proxies, else the socket's peer (config.ts).
    trustProxy:
      deps.config.TRUST_PROXY !== undefined && deps.config.TRUST_PROXY.length > 0
        ? [...deps.config.TRUST_PROXY]
        : false,
    ajv: ajvOptions,
    schemaController: { compilersFactory: { buildValidator: buildValidatorFactory() } },
    // On close, idle keep-alive sockets are dropped at once; in-flight requests still finish.
    forceCloseConnections: 'idle',
    // See drain.ts: requests on connections already open while closing are served, not refused
    // with Fastify's own 503 body (which is not the API's error shape).
    return503OnClosing: false,
    // Beyond this a slow client is cut off instead of holding a socket and its memory.
    requestTimeout: 60_000,
    // Answers given before any hook runs still get security headers, a request id, a log line
    // and a count (see refusals.ts and parser-refusals.ts).
    frameworkErrors: frameworkErrorAnswer(httpMetrics),
    clientErrorHandler: parserErrorAnswer(httpMetrics),
    // Node would refuse an HTTP/1.1 request without Host itself, unseen; refusals.ts does instead.
    http: { requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();
  registerServerRefusals(app.server, httpMetrics, app.log);

  const table: RegisteredRoute[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', function (route) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Fastify adds a HEAD twin for every GET; it runs the GET's hooks and handler.
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url, schema: route.schema, websocket: route.websocket === true });
    }
    if (route.schema?.body !== undefined) assertStrictBody(route.method, route.url, route.schema.body);
    // The auth plugin puts `requireAdmin` on every admin route; without it (or before it is
    // registered) an admin route would be open, so refuse to start instead.
    if (isAdminUrl(route.url) && !this.hasDecorator('requireAdmin')) {
      throw new Error(
        `${String(route.method)} ${route.url}: admin routes need createAuthPlugin registered before them`,
      );
    }
  });
  registerErrorHandler(app);
  registerJsonBody(app);
  registerAbandonedRequests(app, httpMetrics);
  registerRequestId(app);
  registerHostRequired(app);
  registerPlainPaths(app);
  registerDrain(app);
  registerSecurity(app, deps.config.CORS_ORIGINS);
  registerJsonEscape(app);
  // Before any route: see http/websocket.ts for why it cannot live in the plugin that uses it.
  registerWebSocket(app);
  registerDocs(app, deps.config.API_DOCS);
  registerHttpMetrics(app, httpMetrics);

  // Routes go in a child context so they are added after the docs plugin has loaded and is
  // collecting them; hooks, the error handler and the 404 handler stay on the root.
  const readiness =
    typeof deps.readiness === 'function'
      ? deps.readiness
      : databaseReadiness(deps.db, deps.logger, deps.readiness.migrations);
  void app.register(async (operations) => {
    registerHealthRoutes(operations, readiness);
    if (deps.config.METRICS_PORT === undefined) {
      registerMetricsRoute(operations, deps.registry, deps.config.METRICS_TOKEN);
    }
  });
  const consoleSource = resolveConsoleRoot(deps.config.CONSOLE_DIR, PLACEHOLDER_DIR);
  if (consoleSource.placeholder) {
    deps.logger.info(
      { consoleDir: deps.config.CONSOLE_DIR },
      'console not built; serving the placeholder page',
    );
  }
  registerConsole(app, consoleSource);

  for (const plugin of deps.plugins ?? []) void app.register(plugin);
  return app;
}
