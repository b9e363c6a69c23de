import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineDb } from '@updown/runtime';
import type { GatewayInstance } from '../http/instance';
import { buildDocumentedApp } from './api-document';

/**
 * Every refusal the server gives before an operation's handler runs is declared by that
 * operation, derived from what the operation is rather than listed by hand, so a new route is
 * held to it too. Each documented operation is sent the requests the edge refuses, and the status
 * that comes back must be among its documented responses:
 * - on a method whose body Fastify parses (POST, PUT, PATCH, DELETE): a malformed JSON body (400),
 *   a body of a type no parser takes (415) and one over the body limit (413), even where the
 *   operation reads no body (logout-all, a pair's delete, a risk resume);
 * - a JSON body of the wrong shape where a body schema is declared (400);
 * - a NUL in each path and query parameter (400), and a path parameter over the router's length
 *   (414; a GET falls through to the unknown-path 404).
 * A root `preHandler` hook answers 204 once a request reaches a documented handler, so no handler
 * runs and no database is needed; the not-found handler is left to answer for itself.
 */

/** The body limit of the documented app (`buildDocumentedApp`). */
const BODY_LIMIT_BYTES = 1024 * 1024;
/** Fastify's `maxParamLength`. */
const PATH_PARAMETER_LENGTH_MAX = 100;
const BODY_PARSED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly schema?: { format?: string; type?: string };
}
interface Operation {
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { content: Record<string, unknown> };
  readonly responses: Record<string, unknown>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

interface Probe {
  readonly what: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly payload?: string;
  /** The status the edge answers this probe with. */
  readonly expected: number;
}

let app: GatewayInstance;
let doc: Document;
let tokens: { access: string; twoFactor: string };
const documentedRoutes = new Set<string>();
let sent = 0;

function answerAtTheHandler(instance: GatewayInstance): void {
  instance.addHook('preHandler', async (request: FastifyRequest, reply) => {
    if (documentedRoutes.has(`${request.method} ${request.routeOptions.url}`)) return reply.code(204).send();
  });
}

beforeAll(async () => {
  // Every user id reads back as an admin's, so `requireAdmin` lets the admin routes through.
  app = await buildDocumentedApp({
    db: offlineDb({ rows: [{ role: 'admin' }] }),
    beforeReady: answerAtTheHandler,
  });
  doc = JSON.parse(JSON.stringify(app.swagger())) as Document;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) {
      documentedRoutes.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    }
  }
  const jwt = (app as unknown as { jwt: { sign(claims: object): string } }).jwt;
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const sub = randomUUID();
  tokens = {
    access: jwt.sign({ sub, role: 'admin', typ: 'access', sid: randomUUID(), exp }),
    twoFactor: jwt.sign({ sub, role: 'user', typ: '2fa', exp }),
  };
});
afterAll(async () => app?.close());

/** A value each path parameter's schema takes, so a probe reaches the part it is about. */
function validValue(parameter: Parameter): string {
  if (parameter.schema?.format === 'uuid') return randomUUID();
  if (parameter.schema?.type === 'integer' || parameter.schema?.type === 'number') return '1';
  return 'BTCUSDT';
}

function urlOf(
  path: string,
  parameters: readonly Parameter[],
  overrides: Record<string, string> = {},
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name)!;
    return overrides[name] ?? validValue(parameter);
  });
  const query = parameters
    .filter((p) => p.in === 'query' && overrides[p.name] !== undefined)
    .map((p) => `${p.name}=${overrides[p.name]}`);
  return query.length > 0 ? `${filled}?${query.join('&')}` : filled;
}

function probesOf(method: string, path: string, op: Operation): Probe[] {
  const parameters = op.parameters ?? [];
  const url = urlOf(path, parameters);
  const probes: Probe[] = [];
  if (BODY_PARSED_METHODS.has(method)) {
    const json = { 'content-type': 'application/json' };
    probes.push(
      { what: 'malformed JSON', url, headers: json, payload: '{"', expected: 400 },
      {
        what: 'a type no parser takes',
        url,
        headers: { 'content-type': 'application/xml' },
        payload: '<a/>',
        expected: 415,
      },
      {
        what: 'a body over the limit',
        url,
        headers: json,
        payload: 'x'.repeat(BODY_LIMIT_BYTES + 1),
        expected: 413,
      },
    );
  }
  if (op.requestBody?.content['application/json'] !== undefined) {
    probes.push({
      what: 'a body of the wrong shape',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '[]',
      expected: 400,
    });
  }
  for (const parameter of parameters.filter((p) => p.in === 'path' || p.in === 'query')) {
    probes.push({
      what: `a NUL in ${parameter.in} parameter ${parameter.name}`,
      url: urlOf(path, parameters, { [parameter.name]: '%00' }),
      expected: 400,
    });
    if (parameter.in !== 'path') continue;
    probes.push({
      what: `path parameter ${parameter.name} over ${PATH_PARAMETER_LENGTH_MAX} characters`,
      url: urlOf(path, parameters, { [parameter.name]: 'a'.repeat(PATH_PARAMETER_LENGTH_MAX + 1) }),
      expected: method === 'GET' ? 404 : 414,
    });
  }
  return probes;
}

/** Whether `responses` declares `status`, exactly or by its class (`4XX`). */
function declares(responses: Record<string, unknown>, status: number): boolean {
  return responses[String(status)] !== undefined || responses[`${String(status)[0]}XX`] !== undefined;
}

describe('the refusals before a handler', () => {
  it('are answered as derived, and declared by every operation that can get them', async () => {
    let probed = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [lower, op] of Object.entries(item)) {
        const method = lower.toUpperCase();
        const credential = path === '/api/2fa/verify' ? tokens.twoFactor : tokens.access;
        for (const probe of probesOf(method, path, op)) {
          const res = await app.inject({
            method: method as 'POST',
            url: probe.url,
            headers: { accept: 'application/json', authorization: `Bearer ${credential}`, ...probe.headers },
            ...(probe.payload === undefined ? {} : { payload: probe.payload }),
            // One address per request: the auth routes' per-address ceiling is not what is tested.
            remoteAddress: `10.9.${(sent >> 8) & 255}.${sent++ & 255}`,
          });
          const name = `${method} ${path}, ${probe.what}`;
          expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBe(probe.expected);
          expect(res.json(), name).toEqual({ detail: expect.any(String), code: expect.any(String) });
          expect(declares(op.responses, res.statusCode), `${name}: ${res.statusCode} is not declared`).toBe(
            true,
          );
          probed++;
        }
      }
    }
    expect(probed).toBeGreaterThan(150);
  }, 120_000);
});
