import { useEffect } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session/session-context';
import { useDailyLeaderboard, type LeaderboardEntry } from '../api/get-daily-leaderboard';
import { useLeaderboardPosition } from '../api/get-leaderboard-position';
import { formatSignedMoney, rankLabel, winRateTone } from './leaderboard-format';

function Rank({ rank }: { rank: number | null }) {
  const { icon, text } = rankLabel(rank);
  if (!icon) return <span className="leaderboard__rank">{text}</span>;
  return (
    <span className="leaderboard__rank leaderboard__rank--podium" aria-label={`Rank ${rank}`} title={text}>
      {icon}
    </span>
  );
}

function Pnl({ value }: { value: number }) {
  return (
    <span className={value > 0 ? 'text-up' : value < 0 ? 'text-down' : ''}>{formatSignedMoney(value)}</span>
  );
}

function WinRate({ value }: { value: number }) {
  return <span className={`win-rate win-rate--${winRateTone(value)}`}>{value.toFixed(1)}%</span>;
}

function LeaderboardTable({ entries, ownId }: { entries: LeaderboardEntry[]; ownId: string | undefined }) {
  return (
    <div className="table-scroll">
      <table className="table">
        <thead>
          <tr>
            <th>Rank</th>
            <th>Trader</th>
            <th>P&amp;L</th>
            <th>Trades</th>
            <th>Win Rate</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.user_id} className={entry.user_id === ownId ? 'leaderboard__own-row' : undefined}>
              <td>
                <Rank rank={entry.rank} />
              </td>
              <td>{entry.name}</td>
              <td>
                <Pnl value={entry.total_pnl} />
              </td>
              <td>{entry.total_trades}</td>
              <td>
                <WinRate value={entry.win_rate} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function YourPosition({ entry }: { entry: LeaderboardEntry }) {
  return (
    <section className="card leaderboard__position" aria-label="Your Position">
      <h2 className="card-title">Your Position</h2>
      <dl className="leaderboard__position-grid">
        <div>
          <dt className="muted">Rank</dt>
          <dd>
            <Rank rank={entry.rank} />
          </dd>
        </div>
        <div>
          <dt className="muted">Trader</dt>
          <dd>{entry.name}</dd>
        </div>
        <div>
          <dt className="muted">P&amp;L</dt>
          <dd>
            <Pnl value={entry.total_pnl} />
          </dd>
        </div>
        <div>
          <dt className="muted">Trades</dt>
          <dd>{entry.total_trades}</dd>
        </div>
        <div>
          <dt className="muted">Win Rate</dt>
          <dd>
            <WinRate value={entry.win_rate} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The public daily leaderboard; load errors are only logged and the loading state ends (spec §8). */
export function LeaderboardPage() {
  const { user } = useSession();
  const board = useDailyLeaderboard();
  const position = useLeaderboardPosition(user?.id);

  useEffect(() => {
    if (board.error) console.error('Failed to load the leaderboard', board.error);
  }, [board.error]);
  useEffect(() => {
    if (position.error) console.error('Failed to load the leaderboard position', position.error);
  }, [position.error]);

  const entries = board.data ?? [];
  return (
    <div className="page">
      <header className="app-header">
        <div className="app-header__brand">Updown</div>
        <nav className="app-header__nav app-header__nav--always">
          <Link to="/" className="nav-button">
            Home
          </Link>
          <Link to="/trade" className="nav-button">
            Trade
          </Link>
          <Link to="/wallet" className="nav-button">
            Wallet
          </Link>
        </nav>
      </header>
      <main className="page__body leaderboard">
        <div>
          <h1>Daily Leaderboard</h1>
          <p className="muted">
            Compete with traders worldwide. Rankings are based on daily profit &amp; loss.
          </p>
        </div>
        {position.data && <YourPosition entry={position.data} />}
        <section className="card">
          <h2 className="card-title">Daily Leaderboard - Top 20</h2>
          <p className="muted small">Rankings reset daily at midnight UTC</p>
          {board.isPending ? (
            <p className="muted">Loading...</p>
          ) : entries.length === 0 ? (
            <p className="muted">No trades today yet. Be the first!</p>
          ) : (
            <LeaderboardTable entries={entries} ownId={user?.id} />
          )}
        </section>
      </main>
    </div>
  );
}
