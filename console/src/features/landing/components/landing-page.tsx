import { Link, useNavigate } from 'react-router';

const FEATURES = [
  { title: 'Fast Trading', text: 'Open trades from 1 minute to 1 hour on currencies, metals and crypto.' },
  { title: 'Secure Platform', text: 'Your wallet is protected, with demo and real accounts kept apart.' },
  { title: 'Instant Withdrawals', text: 'Withdrawals are processed within 24 hours.' },
];

export const POLICY_LINKS = [
  { to: '/terms', label: 'Terms & Conditions' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/rules', label: 'Trading Rules' },
  { to: '/client-agreement', label: 'Client Agreement' },
  { to: '/aml-policy', label: 'AML Policy' },
  { to: '/bonus-policy', label: 'Bonus Policy' },
];

export function LandingPage() {
  const navigate = useNavigate();
  const toAuth = () => void navigate('/auth');

  return (
    <div className="landing">
      <header className="landing__header">
        <div className="app-header__brand">Updown</div>
        <div className="landing__actions">
          <button type="button" className="button button--ghost" onClick={toAuth}>
            Log in
          </button>
          <button type="button" className="button button--primary" onClick={toAuth}>
            Register
          </button>
        </div>
      </header>
      <section className="landing__hero">
        <h1>Trade UP or DOWN in minutes</h1>
        <p>
          Fixed-time trades from 1 minute to 1 hour. Practise on a demo account, trade for real when ready.
        </p>
        <button type="button" className="button button--primary button--large" onClick={toAuth}>
          Join for free!
        </button>
      </section>
      <section className="landing__features">
        {FEATURES.map((feature) => (
          <div key={feature.title} className="card feature-card">
            <h2 className="card-title">{feature.title}</h2>
            <p>{feature.text}</p>
          </div>
        ))}
      </section>
      <section className="landing__profit card">
        <h2>Up to 99% profit</h2>
        <p>99% profit is available to VIP members only.</p>
        <button type="button" className="button button--primary" onClick={toAuth}>
          Join us
        </button>
      </section>
      <footer className="landing__footer">
        <nav>
          {POLICY_LINKS.map((link) => (
            <Link key={link.to} to={link.to}>
              {link.label}
            </Link>
          ))}
        </nav>
        <p>© {new Date().getFullYear()} Updown. All rights reserved.</p>
      </footer>
    </div>
  );
}
