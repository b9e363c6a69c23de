/** The first-deposit offer, shown while the bonus is unused and none is active. */
export function BonusBanner({ onClaim }: { onClaim: () => void }) {
  return (
    <section className="card bonus-banner">
      <div>
        <h2 className="card-title">Welcome Bonus Available!</h2>
        <p className="muted">50% bonus on your first deposit (up to $500). Minimum deposit $20.</p>
      </div>
      <button type="button" className="button button--primary" onClick={onClaim}>
        Claim Now
      </button>
    </section>
  );
}
