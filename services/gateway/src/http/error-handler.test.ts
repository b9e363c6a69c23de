import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DatabaseUnavailable, DomainError } from '@updown/runtime';
import { describe, expect, it } from 'vitest';
import { SignInBusy } from '@updown/accounts';
import { testApp } from '../testing/test-app';
import { RETRY_AFTER_SEC_DEFAULT, toErrorAnswer } from './error-handler';
import { codeForStatus, ERROR_STATUS, statusForCode } from './error-status';

/** A limit that knows when it clears, as the sign-in throttle's errors do. */
class Limited extends DomainError {
  constructor(readonly retryAfterSec: number) {
    super('RATE_LIMITED', 'Slow down');
  }
}

describe('toErrorAnswer', () => {
  it('maps domain codes through the one table', () => {
    expect(toErrorAnswer(new DomainError('CONFLICT', 'Request already processed'))).toEqual({
      status: 409,
      body: { detail: 'Request already processed', code: 'CONFLICT' },
    });
    expect(toErrorAnswer(new DomainError('RATE_LIMITED', 'Too many attempts')).status).toBe(429);
    expect(toErrorAnswer(new DomainError('FORBIDDEN', 'Admins only')).status).toBe(403);
  });

  it('lets an error override the table', () => {
    expect(toErrorAnswer(new DomainError('PAIR_STALE', 'Pair is not tradable right now', 422))).toEqual({
      status: 422,
      body: { detail: 'Pair is not tradable right now', code: 'PAIR_STALE' },
    });
  });

  it('hides the message of a domain error with an unknown code or a 5xx status', () => {
    expect(toErrorAnswer(new DomainError('SOMETHING_NEW', 'internal detail'))).toEqual({
      status: 500,
      body: { detail: 'Internal Server Error', code: 'INTERNAL' },
    });
    expect(
      toErrorAnswer(new DomainError('UNKNOWN_ACCOUNT', 'account user:42:real was never opened', 500)).body
        .detail,
    ).toBe('Internal Server Error');
  });

  it('explains a 501, the answer for a feature switched off in this deployment', () => {
    expect(
      toErrorAnswer(new DomainError('GOOGLE_NOT_CONFIGURED', 'Google sign-in is not configured')),
    ).toEqual({
      status: 501,
      body: { detail: 'Google sign-in is not configured', code: 'GOOGLE_NOT_CONFIGURED' },
    });
  });

  it('explains a 503 from a service behind the gateway, so the trader knows to retry, and when', () => {
    expect(toErrorAnswer(new DomainError('ORDER_UNAVAILABLE', 'Trading is temporarily unavailable'))).toEqual(
      {
        status: 503,
        body: { detail: 'Trading is temporarily unavailable', code: 'ORDER_UNAVAILABLE' },
        retryAfterSec: RETRY_AFTER_SEC_DEFAULT,
      },
    );
  });

  it('answers a lost or read-only database with 503 and Retry-After, never a 500', () => {
    const failures = [
      // node-postgres's own, and the server's: shut down, a standby now, refused, a failed commit.
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6001'), { code: 'ECONNREFUSED' }),
      new Error('placement batch commit failed', { cause: Object.assign(new Error('x'), { code: '08006' }) }),
      new DatabaseUnavailable(),
    ];
    for (const failure of failures) {
      const answer = toErrorAnswer(failure);
      expect(answer.status, failure.message).toBe(503);
      expect(answer.body.code).toBe('DATABASE_UNAVAILABLE');
      // The server's words (hosts, statements) stay in the log: the trader reads the platform's.
      expect(answer.body.detail).toBe(new DatabaseUnavailable().message);
      expect(answer.retryAfterSec).toBe(new DatabaseUnavailable().retryAfterSec);
    }
    // A statement that failed on its own merits is still a 500.
    expect(toErrorAnswer(Object.assign(new Error('duplicate key'), { code: '23505' })).status).toBe(500);
  });

  it('keeps the status of framework errors and gives them a generic code', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      statusCode: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
    expect(toErrorAnswer(tooLarge)).toEqual({
      status: 413,
      body: { detail: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' },
    });
    const noToken = Object.assign(new Error('No Authorization was found in request.headers'), {
      statusCode: 401,
    });
    expect(toErrorAnswer(noToken).body.code).toBe('UNAUTHORIZED');
  });

  it('treats everything else as an internal error', () => {
    expect(toErrorAnswer(new TypeError('x is undefined'))).toEqual({
      status: 500,
      body: { detail: 'Internal Server Error', code: 'INTERNAL' },
    });
    expect(toErrorAnswer('a thrown string').status).toBe(500);
    expect(toErrorAnswer(Object.assign(new Error('upstream'), { statusCode: 502 })).status).toBe(502);
  });
});

describe('Retry-After on every 429', () => {
  it("takes the error's own retryAfterSec, rounded up to whole seconds", () => {
    expect(toErrorAnswer(new Limited(30))).toEqual({
      status: 429,
      body: { detail: 'Slow down', code: 'RATE_LIMITED' },
      retryAfterSec: 30,
    });
    expect(toErrorAnswer(new Limited(2.2)).retryAfterSec).toBe(3);
    // Never 0: a client obeying it would retry in a tight loop.
    expect(toErrorAnswer(new Limited(0)).retryAfterSec).toBe(1);
  });

  it('falls back to a short default when the error does not know', () => {
    expect(RETRY_AFTER_SEC_DEFAULT).toBe(1);
    expect(toErrorAnswer(new SignInBusy()).retryAfterSec).toBe(RETRY_AFTER_SEC_DEFAULT);
    expect(toErrorAnswer(new DomainError('RATE_LIMITED', 'Too many')).retryAfterSec).toBe(1);
    const fromPlugin = Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 });
    expect(toErrorAnswer(fromPlugin)).toMatchObject({ status: 429, retryAfterSec: 1 });
    expect(toErrorAnswer(Object.assign(new Limited(5), { retryAfterSec: Number.NaN })).retryAfterSec).toBe(1);
  });

  it('leaves every other status without one', () => {
    expect(toErrorAnswer(new DomainError('CONFLICT', 'x'))).not.toHaveProperty('retryAfterSec');
    expect(toErrorAnswer(Object.assign(new Limited(9), { status: 409 }))).not.toHaveProperty('retryAfterSec');
  });

  it('sends the header, keeps one a limit set itself, and adds it to a 429 sent without throwing', async () => {
    const routes: FastifyPluginAsyncTypebox = async (app) => {
      app.get('/api/test/limited', async () => {
        throw new Limited(42);
      });
      app.get('/api/test/busy', async () => {
        throw new SignInBusy();
      });
      app.get('/api/test/own-header', async (_request, reply) => {
        void reply.header('retry-after', '120');
        throw new Limited(5);
      });
      app.get('/api/test/sent', async (_request, reply) =>
        reply.code(429).send({ detail: 'Too many', code: 'RATE_LIMITED' }),
      );
      app.get('/api/test/conflict', async () => {
        throw new DomainError('CONFLICT', 'No');
      });
    };
    const t = testApp({ plugins: [routes] });
    try {
      const retryAfter = async (url: string) => {
        const res = await t.app.inject({ url });
        return [res.statusCode, res.headers['retry-after']];
      };
      expect(await retryAfter('/api/test/limited')).toEqual([429, '42']);
      expect(await retryAfter('/api/test/busy')).toEqual([429, '1']);
      expect(await retryAfter('/api/test/own-header')).toEqual([429, '120']);
      expect(await retryAfter('/api/test/sent')).toEqual([429, '1']);
      expect(await retryAfter('/api/test/conflict')).toEqual([409, undefined]);
    } finally {
      await t.close();
    }
  });
});

describe('error status table', () => {
  it('resolves codes and generic codes', () => {
    expect(statusForCode('INSUFFICIENT_FUNDS')).toBe(400);
    expect(statusForCode('NOT_A_CODE')).toBe(500);
    expect(codeForStatus(400)).toBe('BAD_REQUEST');
    expect(codeForStatus(404)).toBe('NOT_FOUND');
    expect(codeForStatus(418)).toBe('BAD_REQUEST');
    for (const status of Object.values(ERROR_STATUS)) expect(status).toBeGreaterThanOrEqual(400);
  });
});
