import { DomainError } from '@updown/runtime';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayInstance } from './instance';
import type { ErrorResponse } from '@updown/schemas/api';
import { codeForStatus, statusForCode } from './error-status';
import { validationRefusal } from './validation';

interface Answer {
  status: number;
  body: ErrorResponse;
}

const INTERNAL: ErrorResponse = { detail: 'Internal Server Error', code: 'INTERNAL' };

/**
 * The 5xx a domain error may explain, because the text is a deliberate answer that leaks nothing:
 * 501 says a feature is switched off in this deployment ("Google sign-in is not configured"), 503
 * that a service behind the gateway is unreachable and the request may be retried.
 */
const NOT_IMPLEMENTED = 501;
const EXPLAINED_5XX: ReadonlySet<number> = new Set([NOT_IMPLEMENTED, 503]);

/**
 * Turns anything thrown in a handler, hook or plugin into `{detail, code}`:
 * - a schema validation failure → 400 with the schema's own words for it, else `VALIDATION`
 *   naming the field;
 * - a `DomainError` → the status of its code in `ERROR_STATUS` (or its own `status`); its text is
 *   hidden behind `INTERNAL` when that status is a 5xx other than 501 and 503;
 * - a Fastify or plugin error carrying a 4xx `statusCode` → that status with its message;
 * - anything else, and any 5xx → 500 `INTERNAL`, with the real error only in the log.
 */
export function toErrorAnswer(error: unknown): Answer {
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
  const { status, body } = toErrorAnswer(error);
  if (status >= 500 && status !== NOT_IMPLEMENTED) {
    request.log.error({ err: error, route: request.routeOptions.url }, 'request failed');
  } else {
    request.log.debug({ code: body.code, detail: body.detail }, 'request rejected');
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Installs the one error handler; encapsulated plugins inherit it. */
export function registerErrorHandler(app: GatewayInstance): void {
  app.setErrorHandler(handleError);
}
