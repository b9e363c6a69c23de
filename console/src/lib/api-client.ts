import { tokenStore } from './token-store';

/**
 * The one way the console talks to the API: same-origin `/api/*`, JSON in and out, the session's
 * Bearer token, and one refresh on a 401. The server rotates refresh tokens and treats a spent one
 * presented again as theft (it revokes the whole family), so concurrent 401s share a single
 * refresh call and a request whose token was already replaced just retries with the new one.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The server's human-readable `detail`, when the body had one. */
  readonly detail: string | undefined;

  constructor(status: number, detail: string | undefined, code: string | undefined) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.code = code;
  }
}

/** The server's `detail` when the error carries one, else the fallback text. */
export function errorDetail(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail ? error.detail : fallback;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the session's Bearer token (default true). */
  auth?: boolean;
  /** Use this token instead of the session's, with no refresh (the two-factor temporary token). */
  token?: string;
  signal?: AbortSignal;
}

interface TokenPair {
  access_token: string;
  refresh_token: string;
}

let refreshInFlight: Promise<boolean> | null = null;

async function refreshOnce(refreshToken: string): Promise<boolean> {
  try {
    const response = await fetch(`/api/auth/refresh?refresh_token=${encodeURIComponent(refreshToken)}`, {
      method: 'POST',
    });
    if (!response.ok) return false;
    const tokens = (await response.json()) as TokenPair;
    tokenStore.setTokens(tokens.access_token, tokens.refresh_token);
    return true;
  } catch (error) {
    console.error('Token refresh failed', error);
    return false;
  }
}

/** Refreshes the session, sharing one call among everyone who asks while it runs. */
export function refreshSession(): Promise<boolean> {
  if (refreshInFlight) return refreshInFlight;
  const refreshToken = tokenStore.refreshToken();
  if (!refreshToken) return Promise.resolve(false);
  refreshInFlight = refreshOnce(refreshToken).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
}

async function readError(response: Response): Promise<ApiError> {
  let detail: string | undefined;
  let code: string | undefined;
  try {
    const body = (await response.json()) as { detail?: unknown; code?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    if (typeof body.code === 'string') code = body.code;
  } catch {
    // Not JSON (a proxy's error page): the status is all there is.
  }
  return new ApiError(response.status, detail, code);
}

async function readBody<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const useSession = options.token === undefined && options.auth !== false;
  const token = options.token ?? (useSession ? tokenStore.accessToken() : null);
  let response = await send(path, options, token);

  if (response.status === 401 && useSession && token) {
    // Another request may already have refreshed while this one was in flight.
    const current = tokenStore.accessToken();
    const renewed = current !== null && current !== token ? true : await refreshSession();
    if (renewed) {
      response = await send(path, options, tokenStore.accessToken());
    } else {
      tokenStore.clear();
    }
  }

  if (!response.ok) throw await readError(response);
  return readBody<T>(response);
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
};
