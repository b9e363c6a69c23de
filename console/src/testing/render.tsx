import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { User } from '../lib/session/get-me';
import { SessionContext, type Session } from '../lib/session/session-context';
import { SessionProvider } from '../lib/session/session-provider';

export const TEST_USER: User = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ann@example.com',
  name: 'Ann Lee',
  role: 'user',
  twofa_enabled: false,
};

export function fakeSession(overrides: Partial<Session> = {}): Session {
  const user = overrides.user === undefined ? null : overrides.user;
  return {
    user,
    loading: false,
    isAdmin: user?.role === 'admin',
    signIn: async () => {},
    logout: async () => {},
    logoutEverywhere: async () => {},
    ...overrides,
  };
}

function LocationProbe() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

interface RouterOptions {
  path?: string;
  /** Navigation state at `path`, as `navigate(path, { state })` leaves it. */
  state?: unknown;
}

function Router({ element, path = '/', state }: RouterOptions & { element: ReactElement }) {
  return (
    <MemoryRouter initialEntries={[state === undefined ? path : { pathname: path, state }]}>
      {element}
      <Routes>
        <Route path="*" element={<LocationProbe />} />
      </Routes>
    </MemoryRouter>
  );
}

function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** Renders `element` (or the given routes) at `path` with a fake session and a fresh query client. */
export function renderWithProviders(
  element: ReactElement,
  options: { session?: Session; path?: string } = {},
) {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <SessionContext.Provider value={options.session ?? fakeSession()}>
        <Router element={element} path={options.path} />
      </SessionContext.Provider>
    </QueryClientProvider>,
  );
}

/**
 * Renders `element` at `path` under the real SessionProvider, for tests of what the session does
 * with localStorage and the API: stub `fetch` (with `GET /api/auth/me` when a token is stored) first.
 */
export function renderWithSession(element: ReactElement, options: RouterOptions = {}) {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <SessionProvider>
        <Router element={element} {...options} />
      </SessionProvider>
    </QueryClientProvider>,
  );
}
