import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { User } from '../lib/session/get-me';
import { SessionContext, type Session } from '../lib/session/session-context';

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
    ...overrides,
  };
}

function LocationProbe() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

/** Renders `element` (or the given routes) at `path` with a fake session and a fresh query client. */
export function renderWithProviders(
  element: ReactElement,
  options: { session?: Session; path?: string } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <SessionContext.Provider value={options.session ?? fakeSession()}>
        <MemoryRouter initialEntries={[options.path ?? '/']}>
          {element}
          <Routes>
            <Route path="*" element={<LocationProbe />} />
          </Routes>
        </MemoryRouter>
      </SessionContext.Provider>
    </QueryClientProvider>,
  );
}
