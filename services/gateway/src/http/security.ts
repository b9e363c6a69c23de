import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
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

const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  // Matches frame-ancestors 'none' for browsers that only know the older header.
  frameguard: { action: 'deny' },
};

interface SecurityHeaders {
  readonly set: readonly (readonly [string, string])[];
  readonly removed: readonly string[];
}

/**
 * What helmet does to every response, read once: its headers depend on nothing in the request (no
 * CSP nonces, no route takes other options), so running its middleware against a recording
 * response at start-up gives every header it would set. @fastify/helmet instead builds helmet's
 * middleware again on every request, parsing the policy each time.
 */
export function securityHeaders(): SecurityHeaders {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return { set, removed };
}

export function registerSecurity(app: GatewayInstance, corsOrigins: readonly string[]): void {
  const { set, removed } = securityHeaders();
  // Lower-cased once here rather than by Node or Fastify on every request.
  const headers = set.map(([name, value]) => [name.toLowerCase(), value] as const);
  const removedNames = removed.map((name) => name.toLowerCase());
  // Registered as a plugin, as helmet's was, so its hook keeps its place after the root's own
  // (refusals.ts answers some requests before it with BARE_ERROR_HEADERS). Set on the reply, not
  // the raw response as helmet does: Fastify writes its headers with the status line in one go,
  // where each raw header would be stored apart first. Either way they survive an error answer
  // and a route may override one (the identity document's own policy, the docs page's styles).
  void app.register(
    fp(async (instance) => {
      instance.addHook('onRequest', (_request, reply, done) => {
        for (const name of removedNames) reply.raw.removeHeader(name);
        for (const [name, value] of headers) reply.header(name, value);
        done();
      });
    }),
  );
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
