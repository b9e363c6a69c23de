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

const REQUEST_TIMEOUT_MS = 15_000;

export interface ApiClient {
  request<T>(
    method: 'GET' | 'POST',
    path: string,
    options?: { token?: string; body?: unknown; form?: FormData; idempotencyKey?: string },
  ): Promise<Outcome<T>>;
}

export function createApiClient(baseUrl: string): ApiClient {
  return {
    async request<T>(
      method: 'GET' | 'POST',
      path: string,
      options: { token?: string; body?: unknown; form?: FormData; idempotencyKey?: string } = {},
    ): Promise<Outcome<T>> {
      const headers: Record<string, string> = {};
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${baseUrl}${path}`, {
          method,
          headers,
          // A form sets its own multipart Content-Type with the boundary.
          body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        text = await response.text();
      } catch (error) {
        return { kind: 'unknown', reason: describeError(error) };
      }
      if (response.status >= 500 || response.status === 429) {
        return { kind: 'unknown', reason: `${response.status} ${text.slice(0, 200)}` };
      }
      if (response.status >= 400) {
        const body = parseJson(text) as { code?: string; detail?: string } | undefined;
        return {
          kind: 'refused',
          status: response.status,
          code: body?.code ?? 'UNKNOWN',
          detail: body?.detail ?? text.slice(0, 200),
        };
      }
      return { kind: 'ok', status: response.status, body: parseJson(text) as T };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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
