import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from '../lib/session/session-context';

export function LoadingScreen() {
  return <div className="loading-screen">Loading...</div>;
}

/** Protected routes: 'Loading...' while the session loads, /auth without a user. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  if (loading) return <LoadingScreen />;
  if (!user) return <Navigate to="/auth" replace />;
  return children;
}

/** The admin panel: signed in and an admin, otherwise back to /trade. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user, loading, isAdmin } = useSession();
  if (loading) return <LoadingScreen />;
  if (!user) return <Navigate to="/auth" replace />;
  if (!isAdmin) return <Navigate to="/trade" replace />;
  return children;
}

/** The landing and auth pages: a signed-in visitor goes straight to /trade. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user) return <Navigate to="/trade" replace />;
  return children;
}
