import { vi } from 'vitest';
import type { Schemas } from '../lib/api-schema';

/** A route's answer: a body with a status, or a function of the parsed request body. */
export type FakeRoute = Response | ((body: unknown, url: string) => Response | Promise<Response>);

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Stubs `fetch` with routes keyed `'METHOD /path'` (the query string is ignored); anything else
 * answers 404 so an unexpected call shows up as a failure. Returns the mock to inspect calls.
 */
export function fakeApi(routes: Record<string, FakeRoute>) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = url.split('?')[0];
    const route = routes[`${method} ${path}`];
    if (!route) return json({ detail: `No route for ${method} ${path}` }, 404);
    if (route instanceof Response) return route.clone();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    return route(body, url);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export type FetchMock = ReturnType<typeof fakeApi>;

/** `'GET /api/admin/pairs'` style labels of every call made, in order. */
export function calls(fetchMock: FetchMock): string[] {
  return fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`);
}

/** The parsed bodies of the calls made to `method path`. */
export function bodiesOf(fetchMock: FetchMock, method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([url, init]) => (init?.method ?? 'GET') === method && url === path)
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}

/**
 * A market pair as `GET /api/market/pairs` lists it: live on the built-in feed, open for real
 * trading and unskewed (both directions pay the pair's payout) unless overridden.
 */
export function marketPair(overrides: Partial<Schemas['MarketPair']> = {}): Schemas['MarketPair'] {
  const payoutPct = overrides.payout_pct ?? 80;
  return {
    symbol: 'BTCUSDT',
    display_name: 'BTC/USDT',
    active: true,
    payout_pct: payoutPct,
    provider: 'OTC',
    provider_symbol: null,
    reference_provider: null,
    reference_symbol: null,
    reference_spread_bps: null,
    feed_status: 'live',
    payout_up_pct: payoutPct,
    payout_down_pct: payoutPct,
    real_trading: 'open',
    ...overrides,
  };
}
