import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { GatewayInstance } from './instance';

/**
 * The Content-Security-Policy for everything the gateway serves: the React console, the API and
 * the docs page. The console and Swagger UI load only their own scripts and styles; charts draw
 * images from data URLs (and identity documents from blob URLs); live prices come over a WebSocket on this host, which older browsers do
 * not count as 'self', hence `ws:`/`wss:`. Widen it here, in one place, when a feature needs more
 * (Google sign-in will need its script and frame origins).
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  // blob: the admin's Verification tab shows identity documents fetched with the bearer token.
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  // Not `upgrade-insecure-requests`: served over plain HTTP on a LAN address (docker compose) it
  // would rewrite every asset URL to https and leave a blank page. TLS is the proxy's job.
  upgradeInsecureRequests: null,
};

export function registerSecurity(app: GatewayInstance, corsOrigins: readonly string[]): void {
  void app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // Matches frame-ancestors 'none' for browsers that only know the older header.
    frameguard: { action: 'deny' },
  });
  // With no configured origins the API is same-origin only: no CORS headers are sent at all.
  void app.register(cors, {
    origin: corsOrigins.length > 0 ? [...corsOrigins] : false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-request-id'],
    exposedHeaders: ['x-request-id'],
    maxAge: 600,
  });
}

/**
 * The headers of the few answers given before helmet's hook runs (see refusals.ts and
 * parser-refusals.ts): only small JSON errors, hence the strictest policy. The HSTS value is
 * helmet's default.
 */
export const BARE_ERROR_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
} as const;
