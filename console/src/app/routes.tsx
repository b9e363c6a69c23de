import { Navigate, Route, Routes } from 'react-router';
import { POLICY_SLUGS } from '@updown/schemas/policies';
import { LandingPage } from '../features/landing/components/landing-page';
import { RedirectIfSignedIn, RequireAdmin, RequireAuth } from './guards';
import { LazyRoute, lazyPage } from './lazy-page';

/*
 * The landing page, where visitors arrive, is in the entry chunk; every other page is a chunk of
 * its own, fetched when its route is first visited, so the chart, the indicator maths, the admin
 * panel and the policy documents' text never load before a page needs them. The bundle-budget
 * test holds the entry chunk to its size and keeps those libraries out of it.
 */
const pages = {
  auth: lazyPage(
    () => import('../features/auth/components/auth-page'),
    (module) => module.AuthPage,
  ),
  twoFactor: lazyPage(
    () => import('../features/auth/components/two-factor-page'),
    (module) => module.TwoFactorPage,
  ),
  leaderboard: lazyPage(
    () => import('../features/leaderboard/components/leaderboard-page'),
    (module) => module.LeaderboardPage,
  ),
  trade: lazyPage(
    () => import('./pages/trade-page'),
    (module) => module.TradePage,
  ),
  dashboard: lazyPage(
    () => import('./pages/dashboard-page'),
    (module) => module.DashboardPage,
  ),
  wallet: lazyPage(
    () => import('./pages/wallet-page'),
    (module) => module.WalletPage,
  ),
  admin: lazyPage(
    () => import('./pages/admin-page'),
    (module) => module.AdminPage,
  ),
};

/** One lazy page per policy document, all of them from the one policy chunk. */
const policyPages = POLICY_SLUGS.map((slug) => ({
  slug,
  page: lazyPage(
    () => import('../features/policies/components/policy-page'),
    ({ PolicyPage }) =>
      function Policy() {
        return <PolicyPage slug={slug} />;
      },
  ),
}));

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
      <Route path="/auth" element={<LazyRoute page={pages.auth} guard={RedirectIfSignedIn} />} />
      <Route path="/login" element={<Navigate to="/auth" replace />} />
      <Route path="/2fa-verify" element={<LazyRoute page={pages.twoFactor} />} />
      <Route path="/leaderboard" element={<LazyRoute page={pages.leaderboard} />} />
      {policyPages.map(({ slug, page }) => (
        <Route key={slug} path={`/${slug}`} element={<LazyRoute page={page} />} />
      ))}
      <Route path="/trade" element={<LazyRoute page={pages.trade} guard={RequireAuth} />} />
      <Route path="/dashboard" element={<LazyRoute page={pages.dashboard} guard={RequireAuth} />} />
      <Route path="/wallet" element={<LazyRoute page={pages.wallet} guard={RequireAuth} />} />
      <Route path="/admin" element={<LazyRoute page={pages.admin} guard={RequireAdmin} />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
