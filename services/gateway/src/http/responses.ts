import { ErrorResponse } from '@updown/schemas/api';

/**
 * The error part of a route's `response` schema: `ErrorResponse` for each listed 4xx status and
 * for every 5xx, so the docs show the `{detail, code}` body and the serialiser emits exactly it.
 *
 *   response: { 200: TradeResponse, ...errorResponses(400, 401, 404) }
 */
export function errorResponses<const S extends number>(
  ...statuses: S[]
): Record<S | '5xx', typeof ErrorResponse> {
  const out = { '5xx': ErrorResponse } as Record<S | '5xx', typeof ErrorResponse>;
  for (const status of statuses) out[status] = ErrorResponse;
  return out;
}
