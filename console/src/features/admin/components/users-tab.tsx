import { useState } from 'react';
import type { AdminUserStats } from '@updown/schemas/api';
import { useUsers, type AdminUser, type UsersSort } from '../api/get-users';
import {
  GOOD_WIN_RATE_PCT,
  formatDate,
  formatDollars,
  formatSignedDollars,
  formatWinRate,
  pnlClass,
} from './admin-format';
import { formatRiskDollars, toxicityBreakdown, toxicityClass } from './risk-format';
import { TraderLimitsForm } from './trader-limits-form';
import { UserSecurityActivity } from './user-security-activity';
import { useLoadErrorToast } from './use-load-error-toast';

/** What a user without stats shows: a fresh account, with the demo account's opening balance. */
const EMPTY_STATS: AdminUserStats = {
  real_balance: 0,
  demo_balance: 10000,
  total_trades: 0,
  win_rate: 0,
  net_pnl: 0,
};

/** The spec's nine columns, then the risk controls' two, then the account's security activity. */
const COLUMNS = [
  'Name',
  'Email',
  'Real Balance',
  'Demo Balance',
  'Total Trades',
  'Win Rate',
  'Net P&L',
  '2FA',
  'Registered',
  'Toxicity',
  'Limits',
  'Security',
] as const;

const SORTS: readonly { id: UsersSort; label: string }[] = [
  { id: 'registered', label: 'Newest first' },
  { id: 'toxicity', label: 'Toxicity' },
];

/** The score, with what it is made of in its tooltip; `—` before the trader's first scored trade. */
function ToxicityCell({ toxicity }: { toxicity: AdminUser['toxicity'] }) {
  if (!toxicity) return <td className="muted">—</td>;
  return (
    <td className={toxicityClass(toxicity.score)} title={toxicityBreakdown(toxicity)}>
      {toxicity.score}
    </td>
  );
}

/** `$500.00 staked · 3 open trades`: the trader's own caps, when they have any. */
function ownLimits(limits: AdminUser['limits']): string | null {
  const stake = limits?.max_open_stake ?? null;
  const trades = limits?.max_open_trades ?? null;
  const parts = [
    stake === null ? null : `${formatRiskDollars(stake)} staked`,
    trades === null ? null : `${trades} open trade${trades === 1 ? '' : 's'}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? null : parts.join(' · ');
}

function UserRow({ user, onShowActivity }: { user: AdminUser; onShowActivity(user: AdminUser): void }) {
  const [editing, setEditing] = useState(false);
  const stats = user.stats ?? EMPTY_STATS;
  const limits = ownLimits(user.limits);
  return (
    <>
      <tr>
        <td className="admin-table__strong">{user.name}</td>
        <td>{user.email}</td>
        <td>{formatDollars(stats.real_balance)}</td>
        <td>{formatDollars(stats.demo_balance)}</td>
        <td>{stats.total_trades}</td>
        <td className={stats.win_rate >= GOOD_WIN_RATE_PCT ? 'text-up' : 'text-down'}>
          {formatWinRate(stats.win_rate)}
        </td>
        <td className={pnlClass(stats.net_pnl)}>{formatSignedDollars(stats.net_pnl)}</td>
        <td>
          <span className={user.twofa_enabled ? 'badge badge--up' : 'badge badge--neutral'}>
            {user.twofa_enabled ? 'ON' : 'OFF'}
          </span>
        </td>
        <td>{formatDate(user.created_at)}</td>
        <ToxicityCell toxicity={user.toxicity} />
        <td>
          <div className="admin-actions">
            <button
              type="button"
              className="button button--outline admin-button--small"
              aria-expanded={editing}
              onClick={() => setEditing((open) => !open)}
            >
              Limits
            </button>
            {limits && <span className="muted small">{limits}</span>}
          </div>
        </td>
        <td>
          <button
            type="button"
            className="button button--outline admin-button--small"
            aria-haspopup="dialog"
            onClick={() => onShowActivity(user)}
          >
            Security activity
          </button>
        </td>
      </tr>
      {editing && (
        <tr className="admin-pairs__feed-row">
          <td colSpan={COLUMNS.length}>
            <TraderLimitsForm
              user={user}
              onCancel={() => setEditing(false)}
              onSaved={() => setEditing(false)}
            />
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * Every account with its balances, settled real-trade statistics, toxicity and own limits, and
 * each one's security activity on demand.
 */
export function UsersTab() {
  const [sort, setSort] = useState<UsersSort>('registered');
  const [activityOf, setActivityOf] = useState<AdminUser | null>(null);
  const users = useUsers(sort);
  useLoadErrorToast(users.error, 'users');

  const rows = users.data ?? [];
  return (
    <section className="card admin-card">
      <h2 className="card-title">User Management & Statistics</h2>
      <div className="segmented admin-users__sort" role="group" aria-label="Sort by">
        {SORTS.map((option) => (
          <button
            key={option.id}
            type="button"
            aria-pressed={option.id === sort}
            className={option.id === sort ? 'segment segment--active' : 'segment'}
            onClick={() => setSort(option.id)}
          >
            {option.label}
          </button>
        ))}
      </div>
      {users.isPending ? (
        <p className="muted">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="muted">No users found</p>
      ) : (
        <div className="table-scroll">
          <table className="table admin-table">
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column}>{column}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((user) => (
                <UserRow key={user.id} user={user} onShowActivity={setActivityOf} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {activityOf && <UserSecurityActivity user={activityOf} onClose={() => setActivityOf(null)} />}
    </section>
  );
}
