/**
 * The one table from error code to HTTP status. Services raise `DomainError`s with a code; only
 * this edge decides what status that code means. A code missing here is a 500, which is the safe
 * failure: it is logged with its stack and the client sees no internals. Add a row when a new
 * code is introduced.
 *
 * The first code listed for a status is the generic one, used for errors raised by Fastify and its
 * plugins (malformed JSON, body too large, a missing bearer token) which carry a status but none
 * of our codes.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  INSUFFICIENT_FUNDS: 400,
  INVALID_ACCOUNT_DETAILS: 400,
  INVALID_2FA_CODE: 400,
  WRONG_PASSWORD: 400,
  TWO_FACTOR_CODE_REQUIRED: 400,
  TWO_FACTOR_NOT_ENABLED: 400,
  TWO_FACTOR_NOT_SET_UP: 400,
  INVALID_AMOUNT: 400,
  STAKE_OUT_OF_BOUNDS: 400,
  INVALID_DURATION: 400,
  UNKNOWN_PAIR: 400,
  PAIR_INACTIVE: 400,
  DEMO_WITHDRAWAL: 400,
  NO_ACTIVE_BONUS: 400,
  INVALID_PAIR: 400,
  INVALID_FEED: 400,
  FEEDS_DIVERGED: 409,
  INVALID_SETTINGS: 400,
  INVALID_RISK_SETTINGS: 400,
  INVALID_DOCUMENT: 400,
  INVALID_IDENTITY_DETAILS: 400,
  VERIFICATION_INCOMPLETE: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_REFRESH_TOKEN: 401,
  INVALID_GOOGLE_TOKEN: 401,
  PAYMENT_FAILED: 402,
  FORBIDDEN: 403,
  OWN_DISPUTE: 403,
  IDENTITY_NOT_VERIFIED: 403,
  OWN_VERIFICATION: 403,
  CSRF_REJECTED: 403,
  STEP_UP_REQUIRED: 403,
  NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  IDEMPOTENCY_CONFLICT: 409,
  EMAIL_TAKEN: 409,
  TWO_FACTOR_ALREADY_ENABLED: 409,
  STALE_PRICE: 409,
  REQUEST_NOT_PENDING: 409,
  PAIR_EXISTS: 409,
  PAIR_HAS_PENDING_TRADES: 409,
  RECEIPT_PENDING: 409,
  TRADE_NOT_SETTLED: 409,
  DISPUTE_WINDOW_CLOSED: 409,
  DISPUTE_ALREADY_OPEN: 409,
  DISPUTE_ALREADY_RESOLVED: 409,
  NOTHING_TO_CORRECT: 409,
  PAYOUT_CHANGED: 409,
  PAIR_SUSPENDED: 409,
  PAIR_NOT_SUSPENDED: 409,
  EXPOSURE_CAP_REACHED: 409,
  OPEN_STAKE_CAP_REACHED: 409,
  OPEN_TRADES_CAP_REACHED: 409,
  VERIFICATION_LOCKED: 409,
  VERIFICATION_NOT_PENDING: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  RATE_LIMITED: 429,
  EXTRA_VERIFICATION_REQUIRED: 429,
  OPEN_DISPUTES_CAP_REACHED: 429,
  DAILY_DISPUTES_CAP_REACHED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  GOOGLE_NOT_CONFIGURED: 501,
  NOT_READY: 503,
  ORDER_UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,
  INSPECTION_QUEUE_FULL: 503,
} as const satisfies Record<string, number>;

export type KnownErrorCode = keyof typeof ERROR_STATUS;

const genericCodeByStatus = new Map<number, string>();
for (const [code, status] of Object.entries(ERROR_STATUS)) {
  if (!genericCodeByStatus.has(status)) genericCodeByStatus.set(status, code);
}

export function statusForCode(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}

/** The code reported for an error that came with a status but no code of ours. */
export function codeForStatus(status: number): string {
  return genericCodeByStatus.get(status) ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}
