import { ApiClient, fetchTransport, type Answer } from '@updown/api-client';

/**
 * The gateway's public API as the workload sees it. Every answer is classified: `ok` (a 2xx, the op
 * is acknowledged), `refused` (a 4xx that decides the op: it did not happen), or `unknown` (a
 * network error, a timeout, a 5xx or a 429: the op may or may not have happened, and only a retry
 * with the same idempotency key can tell).
 */

export type Outcome<T> =
  | { readonly kind: 'ok'; readonly status: number; readonly body: T }
  | { readonly kind: 'refused'; readonly status: number; readonly code: string; readonly detail: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/** A request still unanswered after this may yet commit: its outcome is unknown. */
const REQUEST_TIMEOUT_MS = 15_000;

/** The shared client over fetch, each request given up after `REQUEST_TIMEOUT_MS`. */
export function workloadApi(gatewayUrl: string): ApiClient {
  return new ApiClient(fetchTransport(gatewayUrl, { timeoutMs: REQUEST_TIMEOUT_MS }));
}

/** Sends one request and classifies what came back; nothing back (refused, reset, timed out) is `unknown`. */
export async function outcomeOf<T>(send: () => Promise<Answer<T>>): Promise<Outcome<T>> {
  let answer: Answer<T>;
  try {
    answer = await send();
  } catch (error) {
    return { kind: 'unknown', reason: describeError(error) };
  }
  if (answer.status >= 500 || answer.status === 429) {
    return { kind: 'unknown', reason: `${answer.status} ${answer.text.slice(0, 200)}` };
  }
  if (answer.status >= 400) {
    const problem = answer.body as { code?: string; detail?: string } | undefined;
    return {
      kind: 'refused',
      status: answer.status,
      code: problem?.code ?? 'UNKNOWN',
      detail: problem?.detail ?? answer.text.slice(0, 200),
    };
  }
  return { kind: 'ok', status: answer.status, body: answer.body as T };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

/** Dollars with two decimals, as the API speaks; the harness keeps cents. */
export function dollars(cents: number): number {
  return cents / 100;
}
