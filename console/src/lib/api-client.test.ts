// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiBlob, apiRequest, urlOf } from './api-client';
import { clearCsrfCookie, setCsrfCookie } from '../testing/cookies';
import { tokenStore } from './token-store';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return (init?.headers as Record<string, string> | undefined) ?? {};
}

function authHeader(init: RequestInit | undefined): string | undefined {
  return headersOf(init).authorization;
}

/** The refresh calls made, in order. */
function refreshCalls(fetchMock: ReturnType<typeof vi.fn>): RequestInit[] {
  return fetchMock.mock.calls
    .filter(([url]) => url === '/api/auth/refresh')
    .map(([, init]) => init as RequestInit);
}

beforeEach(() => {
  localStorage.clear();
  tokenStore.setAccessToken('old-access');
  // A cookie session: the HttpOnly refresh cookie is invisible here, its CSRF companion is not.
  setCsrfCookie('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearCsrfCookie();
});

describe('api client', () => {
  it('sends the Bearer token and returns the JSON body', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/api/wallet')).resolves.toEqual({ ok: true });
    expect(authHeader(fetchMock.mock.calls[0]?.[1])).toBe('Bearer old-access');
  });

  it('shares one refresh among concurrent 401s and retries each request with the new token', async () => {
    let refreshes = 0;
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/auth/refresh')) {
        refreshes += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, { access_token: 'new-access', refresh_token: '' });
      }
      if (authHeader(init) === 'Bearer old-access')
        return json(401, { detail: 'Token expired', code: 'UNAUTHORIZED' });
      return json(200, { url });
    });
    vi.stubGlobal('fetch', fetchMock);

    const results = await Promise.all([
      api.get('/api/wallet'),
      api.get('/api/trades/active'),
      api.get('/api/trades/history', { query: { limit: 20 } }),
    ]);

    expect(refreshes).toBe(1);
    expect(results).toEqual([
      { url: '/api/wallet' },
      { url: '/api/trades/active' },
      { url: '/api/trades/history?limit=20' },
    ]);
    expect(tokenStore.accessToken()).toBe('new-access');
    expect(localStorage.getItem('refresh_token')).toBeNull();
  });

  it('refreshes in the cookie form: no body, the session header and the CSRF cookie echoed', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/auth/refresh') return json(200, { access_token: 'new-access', refresh_token: '' });
      return authHeader(init) === 'Bearer old-access'
        ? json(401, { detail: 'Token expired' })
        : json(200, {});
    });
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/api/wallet');

    const [refresh] = refreshCalls(fetchMock);
    expect(refresh?.method).toBe('POST');
    expect(refresh?.body).toBeUndefined();
    expect(refresh?.credentials).toBe('same-origin');
    expect(headersOf(refresh)).toEqual({ 'x-updown-session': 'cookie', 'x-csrf-token': 'csrf-1' });
    expect(authHeader(fetchMock.mock.calls.at(-1)?.[1])).toBe('Bearer new-access');
  });

  it("moves an earlier version's stored refresh token to the cookie once, in the body", async () => {
    clearCsrfCookie();
    localStorage.setItem('refresh_token', 'legacy-1');
    let access = 'new-access-1';
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/auth/refresh') {
        // The server answers the cookie form with the cookies.
        setCsrfCookie('csrf-2');
        return json(200, { access_token: access, refresh_token: '' });
      }
      return authHeader(init) === `Bearer ${access}` ? json(200, {}) : json(401, { detail: 'Token expired' });
    });
    vi.stubGlobal('fetch', fetchMock);

    await api.get('/api/wallet');
    const [first] = refreshCalls(fetchMock);
    // In the body, never the URL: a URL lands in access logs and proxies.
    expect(JSON.parse(String(first?.body))).toEqual({ refresh_token: 'legacy-1' });
    expect(headersOf(first)).toMatchObject({
      'x-updown-session': 'cookie',
      'content-type': 'application/json',
    });
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(tokenStore.accessToken()).toBe('new-access-1');

    // The access token is refused again later: this time the cookie alone renews it.
    access = 'new-access-2';
    await api.get('/api/wallet');
    const second = refreshCalls(fetchMock)[1];
    expect(second?.body).toBeUndefined();
    expect(headersOf(second)).toEqual({ 'x-updown-session': 'cookie', 'x-csrf-token': 'csrf-2' });
    expect(refreshCalls(fetchMock)).toHaveLength(2);
  });

  it('signs out without calling refresh when there is neither a cookie session nor a legacy token', async () => {
    clearCsrfCookie();
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      json(401, { detail: 'Token expired' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/api/wallet')).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls(fetchMock)).toHaveLength(0);
    expect(tokenStore.accessToken()).toBeNull();
  });

  it('does not refresh again for a 401 that answers a token already replaced', async () => {
    let refreshes = 0;
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/auth/refresh')) {
        refreshes += 1;
        return json(200, { access_token: 'new-access', refresh_token: '' });
      }
      if (authHeader(init) === 'Bearer old-access') {
        // Another tab-local request refreshed while this one was on the wire.
        tokenStore.setAccessToken('new-access');
        return json(401, { detail: 'Token expired' });
      }
      return json(200, {});
    });
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/api/wallet');
    expect(refreshes).toBe(0);
  });

  it('logs out when the refresh fails', async () => {
    localStorage.setItem('user_id', 'user-1');
    const fetchMock = vi.fn(async (url: string) =>
      url.startsWith('/api/auth/refresh')
        ? json(401, { detail: 'Refresh token reused', code: 'INVALID_REFRESH_TOKEN' })
        : json(401, { detail: 'Token expired' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const error = await api.get('/api/wallet').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe('Token expired');
    expect(tokenStore.accessToken()).toBeNull();
    expect(tokenStore.userId()).toBeNull();
  });

  it.each([
    ['the network fails', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the page is left mid-call', () => Promise.reject(new DOMException('aborted', 'AbortError'))],
    ['the server is busy', () => Promise.resolve(json(429, { detail: 'Too many requests' }))],
    ['the server fails', () => Promise.resolve(json(503, { detail: 'Unavailable' }))],
  ])(
    'keeps the session when %s during the refresh, and tries again on the next 401',
    async (_case, answer) => {
      localStorage.setItem('user_id', 'user-1');
      let refreshes = 0;
      const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/api/auth/refresh') {
          refreshes += 1;
          return refreshes === 1 ? answer() : json(200, { access_token: 'new-access', refresh_token: '' });
        }
        return authHeader(init) === 'Bearer new-access'
          ? json(200, { ok: true })
          : json(401, { detail: 'Token expired' });
      });
      vi.stubGlobal('fetch', fetchMock);
      vi.spyOn(console, 'error').mockImplementation(() => undefined);

      await expect(api.get('/api/wallet')).rejects.toMatchObject({ status: 401, detail: 'Token expired' });
      expect(tokenStore.accessToken()).toBe('old-access');
      expect(tokenStore.userId()).toBe('user-1');

      await expect(api.get('/api/wallet')).resolves.toEqual({ ok: true });
      expect(refreshes).toBe(2);
      expect(tokenStore.accessToken()).toBe('new-access');
    },
  );

  it('logs out when the refresh is refused for a missing CSRF token', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url === '/api/auth/refresh'
        ? json(403, { detail: 'CSRF token missing or wrong', code: 'CSRF_REJECTED' })
        : json(401, { detail: 'Token expired' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/api/wallet')).rejects.toMatchObject({ status: 401 });
    expect(tokenStore.accessToken()).toBeNull();
  });

  it("carries the server's detail on errors", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(422, { detail: 'Amount must be positive', code: 'VALIDATION' })),
    );
    await expect(api.post('/api/wallet/deposit', { amount: 0 })).rejects.toMatchObject({
      status: 422,
      detail: 'Amount must be positive',
      code: 'VALIDATION',
    });
  });

  it('fills path templates with encoded parameters and builds the query string', async () => {
    expect(urlOf('/api/admin/pairs/{symbol}', { symbol: 'A/B?c' })).toBe('/api/admin/pairs/A%2FB%3Fc');
    expect(
      urlOf('/api/market/candles', undefined, { pair: 'BTCUSDT', limit: 200, timeframe: undefined }),
    ).toBe('/api/market/candles?pair=BTCUSDT&limit=200');
    expect(() => urlOf('/api/trades/{id}', {})).toThrow('missing path parameter id');
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, { status: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    await api.delete('/api/admin/pairs/{symbol}', { params: { symbol: 'BTC.X' } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/pairs/BTC.X');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('DELETE');
  });

  it('sends a PUT with its JSON body to the filled path template', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, { symbol: 'BTC.X' }));
    vi.stubGlobal('fetch', fetchMock);
    const body = { provider: 'BINANCE' as const, provider_symbol: 'BTC/USDT' };
    await expect(
      api.put('/api/admin/pairs/{symbol}/feed', body, { params: { symbol: 'BTC.X' } }),
    ).resolves.toEqual({ symbol: 'BTC.X' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/admin/pairs/BTC.X/feed');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual(body);
    expect((init?.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('sends a FormData body as it is, leaving the multipart content type to the browser', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(201, { id: 'doc-1' }));
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('kind', 'photo_id');
    form.append('file', new File(['x'], 'id.png', { type: 'image/png' }));
    await expect(apiRequest('/api/identity/documents', { method: 'POST', body: form })).resolves.toEqual({
      id: 'doc-1',
    });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined();
    expect(authHeader(init)).toBe('Bearer old-access');
  });

  it('reads raw bytes as a Blob, refreshing on a 401 and throwing the server detail on a refusal', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/auth/refresh') return json(200, { access_token: 'new-access', refresh_token: '' });
      if (authHeader(init) === 'Bearer old-access') return json(401, { detail: 'Token expired' });
      if (url.endsWith('/missing')) return json(404, { code: 'NOT_FOUND', detail: 'No such document' });
      return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    const blob = await apiBlob('/api/identity/documents/doc-1');
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(authHeader(fetchMock.mock.calls.at(-1)?.[1])).toBe('Bearer new-access');
    const refused = await apiBlob('/api/identity/documents/missing').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, detail: 'No such document', code: 'NOT_FOUND' });
  });
});
