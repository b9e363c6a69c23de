import type { AdminUserStats } from '@updown/schemas/api';
import { useUsers, type AdminUser } from '../api/get-users';
import {
  GOOD_WIN_RATE_PCT,
  formatDate,
  formatDollars,
  formatSignedDollars,
  formatWinRate,
  pnlClass,
} from './admin-format';
import { useLoadErrorToast } from './use-load-error-toast';

/** What a user without stats shows: a fresh account, with the demo account's opening balance. */
const EMPTY_STATS: AdminUserStats = {
  real_balance: 0,
  demo_balance: 10000,
  total_trades: 0,
  win_rate: 0,
  net_pnl: 0,
};

function UserRow({ user }: { user: AdminUser }) {
  const stats = user.stats ?? EMPTY_STATS;
  return (
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
    </tr>
  );
}

/** Every account with its balances and settled real-trade statistics. */
export function UsersTab() {
  const users = useUsers();
  useLoadErrorToast(users.error, 'users');

  const rows = users.data ?? [];
  return (
    <section className="card admin-card">
      <h2 className="card-title">User Management & Statistics</h2>
      {users.isPending ? (
        <p className="muted">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="muted">No users found</p>
      ) : (
        <div className="table-scroll">
          <table className="table admin-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Real Balance</th>
                <th>Demo Balance</th>
                <th>Total Trades</th>
                <th>Win Rate</th>
                <th>Net P&L</th>
                <th>2FA</th>
                <th>Registered</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((user) => (
                <UserRow key={user.id} user={user} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
