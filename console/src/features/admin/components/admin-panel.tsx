import { lazy, Suspense, useEffect, useRef, type KeyboardEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import { ADMIN_TABS, parseAdminTab, type AdminTabId } from './admin-tabs';

// Each tab's code and data load when it first opens: only the open tab is mounted, so only its
// queries run, and React.lazy keeps the other tabs out of the first download.
const PairsTab = lazy(() => import('./pairs-tab').then((module) => ({ default: module.PairsTab })));
const FeedsTab = lazy(() => import('./feeds-tab').then((module) => ({ default: module.FeedsTab })));
const RiskTab = lazy(() => import('./risk-tab').then((module) => ({ default: module.RiskTab })));
const SettingsTab = lazy(() => import('./settings-tab').then((module) => ({ default: module.SettingsTab })));
const DepositsTab = lazy(() => import('./deposits-tab').then((module) => ({ default: module.DepositsTab })));
const WithdrawalsTab = lazy(() =>
  import('./withdrawals-tab').then((module) => ({ default: module.WithdrawalsTab })),
);
// The Verification tab loads pdf.js (and its worker) only when a PDF document is opened in it.
const VerificationTab = lazy(() =>
  import('./verification-tab').then((module) => ({ default: module.VerificationTab })),
);
const UsersTab = lazy(() => import('./users-tab').then((module) => ({ default: module.UsersTab })));
const DisputesTab = lazy(() => import('./disputes-tab').then((module) => ({ default: module.DisputesTab })));

export interface AdminPanelProps {
  /** Pairs or the payout changed: whatever shows the market to traders should reload. */
  onMarketChanged?: () => void;
}

function AdminHeader() {
  const { logout } = useSession();
  const navigate = useNavigate();

  const onLogout = async () => {
    await logout();
    void navigate('/login');
  };

  return (
    <header className="app-header admin-header">
      <h1 className="admin-header__title">Admin Panel</h1>
      <div className="admin-header__actions">
        <button type="button" className="button button--outline" onClick={() => void navigate('/trade')}>
          Back to Trading
        </button>
        <button type="button" className="button button--ghost" onClick={() => void onLogout()}>
          Logout
        </button>
      </div>
    </header>
  );
}

function TabContent({ tab, onMarketChanged }: { tab: AdminTabId } & AdminPanelProps) {
  switch (tab) {
    case 'pairs':
      return <PairsTab onPairsChanged={onMarketChanged} />;
    case 'feeds':
      return <FeedsTab />;
    case 'risk':
      return <RiskTab onMarketChanged={onMarketChanged} />;
    case 'settings':
      return <SettingsTab onSettingsChanged={onMarketChanged} />;
    case 'deposits':
      return <DepositsTab />;
    case 'withdrawals':
      return <WithdrawalsTab />;
    case 'verification':
      return <VerificationTab />;
    case 'users':
      return <UsersTab />;
    case 'disputes':
      return <DisputesTab />;
  }
}

/** The admin panel: header, nine tabs and the open tab, which is kept in `?tab=` across reloads. */
export function AdminPanel({ onMarketChanged }: AdminPanelProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = parseAdminTab(searchParams.get('tab'));
  const tabRefs = useRef(new Map<AdminTabId, HTMLButtonElement>());

  // On a narrow screen the tab strip scrolls; a tab opened from the URL may start out of sight.
  useEffect(() => {
    tabRefs.current.get(tab)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [tab]);

  const select = (id: AdminTabId) => {
    setSearchParams(
      (params) => {
        params.set('tab', id);
        return params;
      },
      { replace: true },
    );
  };

  // Arrow keys move between tabs, as in the WAI-ARIA tabs pattern (only the open tab is tabbable).
  const onKeyDown = (event: KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const index = ADMIN_TABS.findIndex((item) => item.id === tab);
    const next = ADMIN_TABS[(index + step + ADMIN_TABS.length) % ADMIN_TABS.length]!.id;
    select(next);
    tabRefs.current.get(next)?.focus();
  };

  return (
    <div className="page admin-page">
      <AdminHeader />
      <main className="page__body admin-body">
        <div className="admin-tabs" role="tablist" aria-label="Admin sections" onKeyDown={onKeyDown}>
          {ADMIN_TABS.map((item) => (
            <button
              key={item.id}
              ref={(element) => {
                if (element) tabRefs.current.set(item.id, element);
                else tabRefs.current.delete(item.id);
              }}
              type="button"
              role="tab"
              id={`admin-tab-${item.id}`}
              aria-selected={item.id === tab}
              aria-controls={`admin-tabpanel-${item.id}`}
              tabIndex={item.id === tab ? 0 : -1}
              className={item.id === tab ? 'tab tab--active' : 'tab'}
              onClick={() => select(item.id)}
            >
              {item.label}
            </button>
          ))}
        </div>
        <div
          className="admin-tabpanel"
          role="tabpanel"
          id={`admin-tabpanel-${tab}`}
          aria-labelledby={`admin-tab-${tab}`}
        >
          <Suspense fallback={<p className="muted">Loading...</p>}>
            <TabContent tab={tab} onMarketChanged={onMarketChanged} />
          </Suspense>
        </div>
      </main>
    </div>
  );
}
