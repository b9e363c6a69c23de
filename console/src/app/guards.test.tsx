// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Navigate, Route, Routes } from 'react-router';
import { TEST_USER, fakeSession, renderWithProviders } from '../testing/render';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';

afterEach(cleanup);

function Guarded() {
  return (
    <Routes>
      <Route
        path="/"
        element={
          <RedirectIfSignedIn>
            <p>landing</p>
          </RedirectIfSignedIn>
        }
      />
      <Route
        path="/trade"
        element={
          <RequireAuth>
            <p>trade page</p>
          </RequireAuth>
        }
      />
      <Route
        path="/admin"
        element={
          <RequireAdmin>
            <p>admin page</p>
          </RequireAdmin>
        }
      />
      <Route path="/login" element={<Navigate to="/auth" replace />} />
      <Route path="/auth" element={<p>auth page</p>} />
    </Routes>
  );
}

function location(): string {
  return screen.getByTestId('location').textContent ?? '';
}

describe('route guards', () => {
  it("shows 'Loading...' on a protected route while the session loads", () => {
    renderWithProviders(<Guarded />, { path: '/trade', session: fakeSession({ loading: true }) });
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(location()).toBe('/trade');
  });

  it('sends an unauthenticated visitor to /auth', () => {
    renderWithProviders(<Guarded />, { path: '/trade' });
    expect(location()).toBe('/auth');
    expect(screen.queryByText('trade page')).toBeNull();
  });

  it('shows the protected page to a signed-in user', () => {
    renderWithProviders(<Guarded />, { path: '/trade', session: fakeSession({ user: TEST_USER }) });
    expect(screen.getByText('trade page')).toBeTruthy();
  });

  it('sends a non-admin on /admin to /trade', () => {
    renderWithProviders(<Guarded />, { path: '/admin', session: fakeSession({ user: TEST_USER }) });
    expect(location()).toBe('/trade');
  });

  it('lets an admin open /admin', () => {
    const admin = { ...TEST_USER, role: 'admin' as const };
    renderWithProviders(<Guarded />, { path: '/admin', session: fakeSession({ user: admin }) });
    expect(screen.getByText('admin page')).toBeTruthy();
  });

  it('sends a signed-in visitor on / to /trade', () => {
    renderWithProviders(<Guarded />, { path: '/', session: fakeSession({ user: TEST_USER }) });
    expect(location()).toBe('/trade');
  });

  it('redirects /login to /auth', () => {
    renderWithProviders(<Guarded />, { path: '/login' });
    expect(location()).toBe('/auth');
  });
});
