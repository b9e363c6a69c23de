import { DomainError } from '@updown/runtime';
import { describe, expect, it } from 'vitest';
import { toErrorAnswer } from './error-handler';
import { codeForStatus, ERROR_STATUS, statusForCode } from './error-status';

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

  it('explains a 503 from a service behind the gateway, so the trader knows to retry', () => {
    expect(toErrorAnswer(new DomainError('ORDER_UNAVAILABLE', 'Trading is temporarily unavailable'))).toEqual(
      {
        status: 503,
        body: { detail: 'Trading is temporarily unavailable', code: 'ORDER_UNAVAILABLE' },
      },
    );
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
