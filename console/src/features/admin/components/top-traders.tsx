import type { RiskTrader } from '../api/get-risk-overview';
import { formatProfitFactor, toxicityBreakdown, toxicityClass } from './risk-format';

/** The most toxic traders (at most 10, the server's order), with what their scores rest on. */
export function TopTraders({ traders }: { traders: readonly RiskTrader[] }) {
  return (
    <section className="card admin-card">
      <h2 className="card-title">Top traders by toxicity</h2>
      {traders.length === 0 ? (
        <p className="muted">No scored traders yet</p>
      ) : (
        <div className="table-scroll">
          <table className="table admin-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Score</th>
                <th>Trades</th>
                <th>z</th>
                <th>After-move %</th>
                <th>Profit factor</th>
              </tr>
            </thead>
            <tbody>
              {traders.map(({ user_id, name, email, toxicity }) => (
                <tr key={user_id}>
                  <td className="admin-table__strong">{name}</td>
                  <td>{email}</td>
                  <td className={toxicityClass(toxicity.score)} title={toxicityBreakdown(toxicity)}>
                    {toxicity.score}
                  </td>
                  <td>{`${toxicity.trades} (${toxicity.wins} won)`}</td>
                  <td>{toxicity.z_score.toFixed(2)}</td>
                  <td>{`${toxicity.after_move_pct.toFixed(1)}%`}</td>
                  <td>{formatProfitFactor(toxicity.profit_factor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
