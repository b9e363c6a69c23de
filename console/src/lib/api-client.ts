import type {
  ApiPath,
  BodyOf,
  HttpMethod,
  ParamsOf,
  PathWith,
  QueryOf,
  ResponseOf,
  Schemas,
} from './api-schema';
import { urlOf } from '@updown/schemas/openapi';
import { COOKIE_SESSION_HEADERS, csrfHeaders, csrfToken } from './session-cookie';
import { tokenStore } from './token-store';

/**
 * The one way the console talks to the API: same-origin `/api/*`, JSON in and out, the session's
 * Bearer token, and one refresh on a 401. The refresh token itself is an HttpOnly cookie script
 * never sees (`session-cookie.ts`). The server rotates it and treats a spent one presented again as
 * theft (it revokes the whole family), so concurrent 401s share a single refresh call and a request
 * whose token was already replaced just retries with the new one.
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

/**
 * How a refresh ended: `renewed` (a new access token is stored), `refused` (the server will not renew
 * this session: it is over), or `unreachable` (no answer, or one that says nothing about the session:
 * a network failure, a page being left mid-call, a 429 or a 5xx). Only `refused` ends the session
 * here; an unreachable server must not sign a trader out.
 */
export type RefreshOutcome = 'renewed' | 'refused' | 'unreachable';

let refreshInFlight: Promise<RefreshOutcome> | null = null;

/**
 * One `POST /api/auth/refresh` in the cookie form: the browser sends the HttpOnly refresh cookie by
 * itself and the CSRF header proves this origin asked. A refresh token an earlier version left in
 * localStorage goes once in the body (never the URL: a URL lands in access logs and proxies), and
 * the server answers it with the cookie.
 */
async function refreshOnce(legacyRefreshToken: string | null): Promise<RefreshOutcome> {
  const headers: Record<string, string> = { ...COOKIE_SESSION_HEADERS, ...csrfHeaders() };
  let body: string | undefined;
  if (legacyRefreshToken) {
    const legacyBody: BodyOf<'/api/auth/refresh', 'post'> = { refresh_token: legacyRefreshToken };
    headers['content-type'] = 'application/json';
    body = JSON.stringify(legacyBody);
  }
  try {
    const response = await fetch('/api/auth/refresh', {
      method: 'POST',
      headers,
      body,
      credentials: 'same-origin',
    });
    // The server has answered the legacy token: rotated into the cookie or refused, it is of no
    // further use.
    if (legacyRefreshToken) tokenStore.forgetLegacyRefreshToken();
    if (response.status === 400 || response.status === 401 || response.status === 403) return 'refused';
    if (!response.ok) return 'unreachable';
    const tokens = (await response.json()) as Schemas['TokenPair'];
    tokenStore.setAccessToken(tokens.access_token);
    return 'renewed';
  } catch (error) {
    console.error('Token refresh failed', error);
    return 'unreachable';
  }
}

/** Refreshes the session, sharing one call among everyone who asks while it runs. */
export function refreshSession(): Promise<RefreshOutcome> {
  if (refreshInFlight) return refreshInFlight;
  const legacyRefreshToken = tokenStore.legacyRefreshToken();
  // Without the CSRF cookie the server refuses a cookie refresh (403), and without a legacy token
  // either there is nothing to renew with: the call could only fail.
  if (!legacyRefreshToken && !csrfToken()) return Promise.resolve('refused');
  refreshInFlight = refreshOnce(legacyRefreshToken).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  // A FormData body (a file upload) goes as it is: the browser writes its multipart content type
  // with the boundary, which a content type set here would leave out.
  const { body } = options;
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
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

/** The successful response of a call, after one refresh on a 401; a refusal throws an ApiError. */
async function apiResponse(path: string, options: RequestOptions): Promise<Response> {
  const useSession = options.token === undefined && options.auth !== false;
  const token = options.token ?? (useSession ? tokenStore.accessToken() : null);
  let response = await send(path, options, token);

  if (response.status === 401 && useSession && token) {
    // Another request may already have refreshed while this one was in flight.
    const current = tokenStore.accessToken();
    const outcome = current !== null && current !== token ? 'renewed' : await refreshSession();
    if (outcome === 'renewed') {
      response = await send(path, options, tokenStore.accessToken());
    } else if (outcome === 'refused') {
      tokenStore.clear();
    }
    // Unreachable: the call fails with its 401 and the session stays; the next call tries again.
  }

  if (!response.ok) throw await readError(response);
  return response;
}

/**
 * A call answered with JSON. The body may be FormData (a multipart upload), sent with the
 * browser's own content type.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return readBody<T>(await apiResponse(path, options));
}

/** A call answered with raw bytes (an uploaded document), with the same token, refresh and errors. */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await apiResponse(path, options)).blob();
}

export { urlOf };

/** Options of a typed call: path parameters and the query string come typed from the document. */
export type CallOptions<P extends ApiPath, M extends HttpMethod> = Omit<RequestOptions, 'method' | 'body'> & {
  params?: ParamsOf<P, M>;
  query?: QueryOf<P, M>;
};

function call<P extends ApiPath, M extends HttpMethod>(
  method: M,
  path: P,
  body: unknown,
  options: CallOptions<P, M> = {},
): Promise<ResponseOf<P, M>> {
  const { params, query, ...rest } = options;
  return apiRequest<ResponseOf<P, M>>(urlOf(path, params, query), {
    ...rest,
    method: method.toUpperCase() as NonNullable<RequestOptions['method']>,
    body,
  });
}

/**
 * Calls typed by the OpenAPI document: the path is a template the document has (`'/api/trades/place'`,
 * `'/api/admin/pairs/{symbol}'`), the body is that operation's request body and the answer its
 * success response, all from the generated `api-types.ts`.
 */
export const api = {
  get: <P extends PathWith<'get'>>(path: P, options?: CallOptions<P, 'get'>) =>
    call('get', path, undefined, options),
  post: <P extends PathWith<'post'>>(path: P, body?: BodyOf<P, 'post'>, options?: CallOptions<P, 'post'>) =>
    call('post', path, body, options),
  put: <P extends PathWith<'put'>>(path: P, body: BodyOf<P, 'put'>, options?: CallOptions<P, 'put'>) =>
    call('put', path, body, options),
  patch: <P extends PathWith<'patch'>>(
    path: P,
    body: BodyOf<P, 'patch'>,
    options?: CallOptions<P, 'patch'>,
  ) => call('patch', path, body, options),
  delete: <P extends PathWith<'delete'>>(path: P, options?: CallOptions<P, 'delete'>) =>
    call('delete', path, undefined, options),
};
