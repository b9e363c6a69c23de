import { Navigate, Route, Routes } from 'react-router';
import { AuthPage } from '../features/auth/components/auth-page';
import { TwoFactorPage } from '../features/auth/components/two-factor-page';
import { LandingPage } from '../features/landing/components/landing-page';
import { PolicyPage } from '../features/policies/components/policy-page';
import { POLICY_SLUGS } from '../features/policies/components/policy-texts';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';
import { DashboardPage } from './pages/dashboard-page';
import { AdminPage } from './pages/admin-page';
import { LeaderboardPage } from '../features/leaderboard/components/leaderboard-page';
import { TradePage } from './pages/trade-page';
import { WalletPage } from './pages/wallet-page';

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/"
        element={
          <RedirectIfSignedIn>
            <LandingPage />
          </RedirectIfSignedIn>
        }
      />
      <Route
        path="/auth"
        element={
          <RedirectIfSignedIn>
            <AuthPage />
          </RedirectIfSignedIn>
        }
      />
      <Route path="/login" element={<Navigate to="/auth" replace />} />
      <Route path="/2fa-verify" element={<TwoFactorPage />} />
      <Route path="/leaderboard" element={<LeaderboardPage />} />
      {POLICY_SLUGS.map((slug) => (
        <Route key={slug} path={`/${slug}`} element={<PolicyPage slug={slug} />} />
      ))}
      <Route
        path="/trade"
        element={
          <RequireAuth>
            <TradePage />
          </RequireAuth>
        }
      />
      <Route
        path="/dashboard"
        element={
          <RequireAuth>
            <DashboardPage />
          </RequireAuth>
        }
      />
      <Route
        path="/wallet"
        element={
          <RequireAuth>
            <WalletPage />
          </RequireAuth>
        }
      />
      <Route
        path="/admin"
        element={
          <RequireAdmin>
            <AdminPage />
          </RequireAdmin>
        }
      />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
