import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useSession } from '../lib/session/session-context';

/** The signed-in pages' header: product title, navigation, the user's email and logout. */
export function AppHeader() {
  const { user, isAdmin, logout } = useSession();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);

  // Navigating in the same tick as the session is forgotten: once the page re-renders without a
  // user, this header is gone and could no longer navigate.
  const onLogout = async () => {
    const ending = logout();
    void navigate('/login');
    await ending;
  };

  const links = [
    { to: '/trade', label: 'Trade' },
    { to: '/dashboard', label: 'Dashboard' },
    { to: '/wallet', label: 'Wallet' },
    ...(isAdmin ? [{ to: '/admin', label: 'Admin' }] : []),
  ];

  return (
    <header className="app-header">
      <div className="app-header__brand">Updown</div>
      <nav className="app-header__nav">
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} className="nav-button">
            {link.label}
          </NavLink>
        ))}
      </nav>
      <div className="app-header__user">
        <span className="app-header__email">{user?.email}</span>
        <button type="button" className="button button--ghost" onClick={() => void onLogout()}>
          Logout
        </button>
        <button
          type="button"
          className="button button--ghost app-header__menu-toggle"
          aria-label="Menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((open) => !open)}
        >
          ☰
        </button>
      </div>
      {menuOpen && (
        <nav className="app-header__mobile-menu">
          {links
            .filter((link) => link.to !== '/trade')
            .map((link) => (
              <NavLink key={link.to} to={link.to} className="nav-button" onClick={() => setMenuOpen(false)}>
                {link.label}
              </NavLink>
            ))}
        </nav>
      )}
    </header>
  );
}
