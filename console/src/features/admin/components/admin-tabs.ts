/** The admin panel's tabs in display order; the id is what `?tab=` holds. */
export const ADMIN_TABS = [
  { id: 'pairs', label: 'Trading Pairs' },
  { id: 'feeds', label: 'Feeds' },
  { id: 'risk', label: 'Risk' },
  { id: 'settings', label: 'Settings' },
  { id: 'deposits', label: 'Deposits' },
  { id: 'withdrawals', label: 'Withdrawals' },
  { id: 'verification', label: 'Verification' },
  { id: 'users', label: 'Users' },
  { id: 'disputes', label: 'Disputes' },
] as const;

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];

export const DEFAULT_ADMIN_TAB: AdminTabId = 'pairs';

/** A missing or unknown `?tab=` value opens the default tab rather than an empty panel. */
export function parseAdminTab(value: string | null): AdminTabId {
  return ADMIN_TABS.find((tab) => tab.id === value)?.id ?? DEFAULT_ADMIN_TAB;
}
