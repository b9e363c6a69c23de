import { Link } from 'react-router';
import { SimplePage } from '../../components/ui/simple-page';

/** Screens not built yet: each keeps its route, title and guard so navigation works end to end. */
export function AdminPage() {
  return <SimplePage title="Admin Panel" />;
}

export function LeaderboardPage() {
  return (
    <div className="page">
      <header className="app-header">
        <div className="app-header__brand">Updown</div>
        <nav className="app-header__nav">
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
      <main className="page__body">
        <h1>Daily Leaderboard</h1>
        <p className="muted">Compete with traders worldwide. Rankings are based on daily profit & loss.</p>
      </main>
    </div>
  );
}
