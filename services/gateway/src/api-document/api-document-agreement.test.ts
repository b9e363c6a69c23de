import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requestArbitrary,
  summarize,
  type FuzzRequest,
  type FuzzTarget,
  type JsonSchema,
} from '@updown/schemas/testing';
import { registeredRoutes } from '../app';
import type { GatewayInstance } from '../http/instance';
import { DocumentRequests, type DocumentedInputs } from '../testing/document-requests';
import { offlineDb } from '@updown/runtime';
import { buildDocumentedApp } from './api-document';

/**
 * For every operation that takes input, the OpenAPI document and the server's schema stage give
 * the same verdict on the same request: generated from the document's own schemas (valid values
 * and hostile mutations of them, with the security fuzzer's arbitraries), sent to the server, and
 * judged by the document with an Ajv of its own over exactly what the server's validators saw.
 *
 * "The schema stage refused" is told inside the process, not from the answer (handlers refuse with
 * the same 400 and code): a root `preValidation` hook keeps a copy of the parsed input, an
 * `onError` hook sees Fastify's validation error, and a root `preHandler` hook — reached only when
 * every part passed — answers 204 at once, so no handler runs and no database is needed. Requests
 * that never reach validation (malformed JSON, a path that routes elsewhere) have no schema verdict
 * and are counted apart.
 */

/** `UPDOWN_TEST_LONG=1` and `CHAOS_SEED` as in the security suite: a longer search, another seed. */
const RUNS_PER_OPERATION = process.env.UPDOWN_TEST_LONG === '1' ? 1_000 : 50;
const SEED = process.env.CHAOS_SEED === undefined ? 20_240_615 : Number(process.env.CHAOS_SEED);
/** Below this share of inputs reaching validation, the generator (or a credential) is broken. */
const JUDGED_SHARE_MIN = 0.6;

/** What the hooks saw of the request in flight (requests are sent one at a time). */
interface Seen {
  route?: string;
  input?: { query: unknown; params: unknown; headers: Record<string, unknown>; body: unknown };
  schemaError?: string;
  otherError?: string;
  passed: boolean;
}

let app: GatewayInstance;
let documents: DocumentRequests;
let seen: Seen = { passed: false };
let tokens: { access: string; twoFactor: string };
let sent = 0;

function observeSchemaStage(instance: GatewayInstance): void {
  instance.addHook('preValidation', async (request: FastifyRequest) => {
    seen.route = `${request.method} ${request.routeOptions.url}`;
    // Validation coerces and fills defaults in place: keep what it was given.
    seen.input = structuredClone({
      query: request.query,
      params: request.params,
      headers: request.headers,
      body: request.body,
    }) as Seen['input'];
  });
  instance.addHook('onError', async (_request, _reply, error) => {
    if ((error as { validation?: unknown }).validation) seen.schemaError = error.message;
    else seen.otherError = error.message;
  });
  instance.addHook('preHandler', async (_request, reply) => {
    seen.passed = true;
    return reply.code(204).send();
  });
}

beforeAll(async () => {
  // Every user id reads back as an admin's, so `requireAdmin` lets the admin routes through.
  app = await buildDocumentedApp({
    db: offlineDb({ rows: [{ role: 'admin' }] }),
    beforeReady: observeSchemaStage,
  });
  // Read directly: the hooks above answer every request, `/docs/json` included, with a 204.
  documents = await DocumentRequests.of(JSON.parse(JSON.stringify(app.swagger())) as object);
  const jwt = (app as unknown as { jwt: { sign(claims: object): string } }).jwt;
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const sub = randomUUID();
  tokens = {
    access: jwt.sign({ sub, role: 'admin', typ: 'access', sid: randomUUID(), exp }),
    twoFactor: jwt.sign({ sub, role: 'user', typ: '2fa', exp }),
  };
});
afterAll(async () => app?.close());

const fastifyUrl = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The parts of a request an operation states a schema for, by OpenAPI's names. */
function documentedParts(op: DocumentedInputs): string[] {
  const parts = { body: op.body, query: op.query, path: op.pathParams, header: op.headers };
  return Object.entries(parts)
    .filter(([, schema]) => schema !== undefined)
    .map(([part]) => part);
}
const hasInput = (op: DocumentedInputs) => documentedParts(op).length > 0;

/** Fastify's names for the same parts. */
const ROUTE_PARTS = { body: 'body', querystring: 'query', params: 'path', headers: 'header' } as const;

/** The document's inputs in the shape the shared request generator takes. */
function target(op: DocumentedInputs): FuzzTarget {
  return {
    method: op.method,
    url: fastifyUrl(op.path),
    body: op.body?.schema as JsonSchema | undefined,
    query: op.query as JsonSchema | undefined,
    params: op.pathParams as JsonSchema | undefined,
    idempotent:
      (op.headers?.properties as Record<string, unknown> | undefined)?.['idempotency-key'] !== undefined,
  };
}

/** The second step of a two-factor sign-in takes only the temporary token of the first. */
const credential = (url: string) => (url === '/api/2fa/verify' ? tokens.twoFactor : tokens.access);

interface Tally {
  judged: number;
  accepted: number;
  refused: number;
  unjudged: number;
}

async function checkAgreement(op: DocumentedInputs, request: FuzzRequest, tally: Tally): Promise<void> {
  const route = `${op.method} ${fastifyUrl(op.path)}`;
  seen = { passed: false };
  const res = await app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...request.headers, authorization: `Bearer ${credential(fastifyUrl(op.path))}` },
    payload: request.payload,
    // One address per request: the auth routes' per-IP ceiling is not what is tested here.
    remoteAddress: `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent++ & 255}`,
  });
  const what = `${summarize(request)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
  if (seen.input === undefined || seen.route !== route) {
    // Refused before validation (unparsable JSON, a bad escape) or routed elsewhere (`..` in the
    // path): no schema verdict to compare. Not refused means some other route took it.
    if (seen.input === undefined) expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
    tally.unjudged++;
    return;
  }
  if (!seen.passed) {
    expect(seen.schemaError, `${what}: refused after validation began, but not by a schema`).toBeDefined();
  }
  const sentBody = request.payload !== undefined && request.payload.trim() !== '';
  const verdict = documents.judge({
    method: op.method,
    url: op.path,
    query: seen.input.query as Record<string, unknown>,
    params: seen.input.params as Record<string, unknown>,
    headers: seen.input.headers,
    body: sentBody ? seen.input.body : undefined,
  });
  const server = seen.passed ? 'accepts' : `refuses (${seen.schemaError})`;
  const document = verdict.ok ? 'accepts' : `refuses (${verdict.why})`;
  expect(verdict.ok, `${what}\n  server ${server}\n  document ${document}`).toBe(seen.passed);
  tally.judged++;
  if (seen.passed) tally.accepted++;
  else tally.refused++;
}

describe('the OpenAPI document and the server schema stage', () => {
  it('cover the same operations: every route that validates input is documented with each part', () => {
    const documented = documents
      .operations()
      .filter(hasInput)
      .map((op) => `${op.method} ${fastifyUrl(op.path)} ${documentedParts(op).sort().join(',')}`)
      .sort();
    const validated = registeredRoutes(app)
      .filter((route) => !route.websocket && route.schema && !route.schema.hide)
      .map((route) => {
        const schema = route.schema as Record<string, unknown>;
        const parts = Object.entries(ROUTE_PARTS)
          .filter(([fastifyPart]) => schema[fastifyPart] !== undefined)
          .map(([, part]) => part);
        return `${route.method} ${route.url} ${parts.sort().join(',')}`;
      })
      .filter((line) => !line.endsWith(' '))
      .sort();
    expect(documented).toEqual(validated);
    expect(documented.length).toBeGreaterThanOrEqual(20);
  });

  it('refuse and accept the same generated requests, for every operation that takes input', async () => {
    const covered: string[] = [];
    const tallies: Record<string, Tally> = {};
    for (const op of documents.operations().filter(hasInput)) {
      const name = `${op.method} ${op.path}`;
      const tally: Tally = { judged: 0, accepted: 0, refused: 0, unjudged: 0 };
      await fc.assert(
        fc.asyncProperty(requestArbitrary(target(op), {}), (request) => checkAgreement(op, request, tally)),
        { numRuns: RUNS_PER_OPERATION, seed: SEED },
      );
      tallies[name] = tally;
      covered.push(name);
    }
    const expected = documents
      .operations()
      .filter(hasInput)
      .map((op) => `${op.method} ${op.path}`);
    expect(covered).toEqual(expected);
    const total = (key: keyof Tally) => Object.values(tallies).reduce((sum, t) => sum + t[key], 0);
    console.log(
      `agreement: ${covered.length} operations, ${total('judged')} inputs judged (${total('accepted')} accepted, ${total('refused')} refused), ${total('unjudged')} refused before validation or routed elsewhere`,
    );
    for (const [name, tally] of Object.entries(tallies)) {
      // Both verdicts are exercised on every operation, and most inputs reach validation.
      expect(tally.accepted, `${name}: ${JSON.stringify(tally)}`).toBeGreaterThan(0);
      expect(tally.refused, `${name}: ${JSON.stringify(tally)}`).toBeGreaterThan(0);
      expect(tally.judged / (tally.judged + tally.unjudged), name).toBeGreaterThanOrEqual(JUDGED_SHARE_MIN);
    }
  }, 60_000);
});
