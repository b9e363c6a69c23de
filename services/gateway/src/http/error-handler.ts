import { DatabaseUnavailable, DomainError, isDatabaseUnavailable } from '@updown/runtime';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayInstance } from './instance';
import type { ErrorResponse } from '@updown/schemas/api';
import { codeForStatus, statusForCode } from './error-status';
import { validationRefusal } from './validation';

interface Answer {
  status: number;
  body: ErrorResponse;
  /** Set on every 429 and 503: the `Retry-After` the answer carries unless the reply already has one. */
  retryAfterSec?: number;
}

const TOO_MANY_REQUESTS = 429;
const SERVICE_UNAVAILABLE = 503;
/**
 * The wait a 429 or 503 states when its error knows no better. Short, because the limits without a known
 * end (the sign-in hashing queue) clear within moments; never zero, so a client that obeys it does
 * not retry in a tight loop.
 */
export const RETRY_AFTER_SEC_DEFAULT = 1;

const INTERNAL: ErrorResponse = { detail: 'Internal Server Error', code: 'INTERNAL' };

/**
 * The 5xx a domain error may explain, because the text is a deliberate answer that leaks nothing:
 * 501 says a feature is switched off in this deployment ("Google sign-in is not configured"), 503
 * that a service behind the gateway, or the database, is unreachable and the request may be retried.
 */
const NOT_IMPLEMENTED = 501;
const EXPLAINED_5XX: ReadonlySet<number> = new Set([NOT_IMPLEMENTED, SERVICE_UNAVAILABLE]);

/**
 * Turns anything thrown in a handler, hook or plugin into `{detail, code}`:
 * - a schema validation failure → 400 with the schema's own words for it, else `VALIDATION`
 *   naming the field;
 * - a `DomainError` → the status of its code in `ERROR_STATUS` (or its own `status`); its text is
 *   hidden behind `INTERNAL` when that status is a 5xx other than 501 and 503;
 * - a Fastify or plugin error carrying a 4xx `statusCode` → that status with its message;
 * - a database that cannot be reached or takes no writes (the primary lost, a failover under way,
 *   the disk full: `isDatabaseUnavailable`) → 503 `DATABASE_UNAVAILABLE`; its transaction rolled
 *   back, so the request may be sent again;
 * - anything else, and any 5xx → 500 `INTERNAL`, with the real error only in the log.
 * A 429 or 503 also says when to come back (`retryAfterSec`, sent as `Retry-After`).
 */
export function toErrorAnswer(thrown: unknown): Answer {
  const error =
    !(thrown instanceof DomainError) && isDatabaseUnavailable(thrown) ? new DatabaseUnavailable() : thrown;
  const answer = errorAnswer(error);
  return answer.status === TOO_MANY_REQUESTS || answer.status === SERVICE_UNAVAILABLE
    ? { ...answer, retryAfterSec: retryAfterSecOf(error) }
    : answer;
}

/**
 * Seconds until a refused request may succeed: the error's own `retryAfterSec` (the limits that
 * know when they clear carry it, as `readonly retryAfterSec: number`), rounded up to whole seconds
 * as the header requires, else the default.
 */
function retryAfterSecOf(error: unknown): number {
  const value = (error as { retryAfterSec?: unknown } | null)?.retryAfterSec;
  if (typeof value !== 'number' || !Number.isFinite(value)) return RETRY_AFTER_SEC_DEFAULT;
  return Math.max(1, Math.ceil(value));
}

function errorAnswer(error: unknown): Answer {
  if (error instanceof DomainError) {
    const status = error.status ?? statusForCode(error.code);
    return status >= 500 && !EXPLAINED_5XX.has(status)
      ? { status, body: INTERNAL }
      : { status, body: { detail: error.message, code: error.code } };
  }
  const fastifyError = error as Partial<FastifyError> | null;
  if (fastifyError && Array.isArray(fastifyError.validation)) {
    return {
      status: 400,
      body: { ...validationRefusal(fastifyError.validation, fastifyError.validationContext) },
    };
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { detail: fastifyError?.message || 'Bad Request', code: codeForStatus(status) } };
  }
  return {
    status: typeof status === 'number' && status >= 500 && status < 600 ? status : 500,
    body: INTERNAL,
  };
}

function handleError(
  this: GatewayInstance,
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const { status, body, retryAfterSec } = toErrorAnswer(error);
  // A limit that set its own header (@fastify/rate-limit, from its window) knows best.
  if (retryAfterSec !== undefined && !reply.hasHeader('retry-after')) {
    void reply.header('retry-after', String(retryAfterSec));
  }
  if (status >= 500 && status !== NOT_IMPLEMENTED) {
    request.log.error({ err: error, route: request.routeOptions.url }, 'request failed');
  } else {
    request.log.debug({ code: body.code, detail: body.detail }, 'request rejected');
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Installs the one error handler; encapsulated plugins inherit it. A 429 sent without throwing
 * (`reply.code(429).send(...)`) still gets a `Retry-After`, so every 429 tells the client when to
 * come back.
 */
export function registerErrorHandler(app: GatewayInstance): void {
  app.setErrorHandler(handleError);
  // A callback hook, not an async one: it runs on every answer, and needs no promise to check one status.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === TOO_MANY_REQUESTS && !reply.hasHeader('retry-after')) {
      void reply.header('retry-after', String(RETRY_AFTER_SEC_DEFAULT));
    }
    done(null, payload);
  });
}
