import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifySchema } from 'fastify';
import { buildMarketWsAsyncApiDocument } from '@updown/schemas/api';
import type { ApiDocsMode } from '../config';
import type { GatewayInstance } from './instance';
import { shapeOpenApiDocument } from './openapi-shape';

export const DOCS_PREFIX = '/docs';
/** The AsyncAPI document of the price WebSocket, which OpenAPI cannot describe. */
export const MARKET_WS_ASYNCAPI_URL = `${DOCS_PREFIX}/asyncapi/market-ws.json`;

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The cookies an operation reads, for the document only: Fastify validates no cookies, so the
     * handler checks them itself. @fastify/swagger lists them as `in: cookie` parameters.
     */
    cookies?: unknown;
    /**
     * The parts of a `multipart/form-data` body, for the document only: @fastify/multipart reads
     * the parts in the handler, and a `body` schema would have Fastify validate a body that is
     * never parsed into one. `registerDocs` shows it as the operation's request body.
     */
    multipart?: unknown;
  }
}

/** A route's schema as the document shows it: a `multipart` form becomes its request body. */
function documentedSchema(schema: FastifySchema): FastifySchema {
  // Undefined for a route without a schema, whatever the type says.
  if (schema?.multipart === undefined) return schema;
  const { multipart, ...rest } = schema;
  return { ...rest, body: multipart, consumes: ['multipart/form-data'] };
}

/**
 * OpenAPI 3 generated from the route schemas (the same TypeBox objects that validate and
 * serialise). Registered before any route so every later route, including those in
 * `deps.plugins`, is collected. With `mode` public, the document is served as JSON at
 * `/docs/json` and browsable at `/docs`, beside the WebSocket's AsyncAPI document; with `off`
 * nothing is served there (an unknown path, 404), and `app.swagger()` still builds the document
 * for `npm run api:types`.
 */
export function registerDocs(app: GatewayInstance, mode: ApiDocsMode = 'public'): void {
  void app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Updown API',
        description:
          'Fixed-time trades, wallet and admin API. Every error body is `{detail, code}`. Besides the answers each operation lists, any request can be refused before it reaches one: a malformed request line or header (400), a request without `Host` (400), headers over 16 KiB (431), a request that takes over 60 s to arrive (408), a path that is not in its plain form (`//`, `.` or `..` segments: 404).',
        version: '0.1.0',
      },
      tags: [{ name: 'operations', description: 'Health, readiness and metrics' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: ({ schema, url }) => ({ schema: documentedSchema(schema), url }),
    // Named components, response descriptions, the refusals before a handler: see openapi-shape.ts.
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? shapeOpenApiDocument(documentObject.openapiObject)
        : documentObject.swaggerObject,
  });
  if (mode === 'off') return;
  void app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // The page loads only same-origin scripts, so the gateway's CSP (security.ts) covers it, but
    // Swagger UI sets one inline style at run time. Allow inline styles on the docs pages only.
    staticCSP: false,
    transformStaticCSP: (header) => header.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  });
  // The server a reader connects to is the one that served the document.
  app.get(MARKET_WS_ASYNCAPI_URL, { schema: { hide: true } }, async (request) =>
    buildMarketWsAsyncApiDocument(request.host),
  );
}
