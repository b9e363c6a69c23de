import { useEffect, useState } from 'react';
import { formatCountdown, formatMoney, formatPrice } from '../../../lib/format';
import { useActiveTrades, type ActiveTrade } from '../api/get-active-trades';

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function ActiveTradeCard({ trade, now }: { trade: ActiveTrade; now: number }) {
  return (
    <div className="active-trade card">
      <div className="row">
        <strong>{trade.pair}</strong>
        <span className={trade.direction === 'UP' ? 'badge badge--up' : 'badge badge--down'}>
          {trade.direction}
        </span>
      </div>
      <div className="active-trade__countdown">{formatCountdown(trade.expiry_ts, now)}</div>
      <div className="row muted">
        <span>Amount</span>
        <span>${formatMoney(trade.amount)}</span>
      </div>
      <div className="row muted">
        <span>Entry</span>
        <span>{formatPrice(trade.pair, trade.entry_price)}</span>
      </div>
    </div>
  );
}

/** The open trades, polled every second; hidden when there are none. */
export function ActiveTradesBar({ enabled }: { enabled: boolean }) {
  const active = useActiveTrades(enabled);
  const now = useNow(1000);

  useEffect(() => {
    if (active.error) console.error('Failed to load active trades', active.error);
  }, [active.error]);

  // Only pending trades whose expiry is still ahead count as active.
  const trades = (active.data ?? []).filter((trade) => trade.expiry_ts * 1000 > now);
  if (trades.length === 0) return null;

  return (
    <section className="active-trades-bar" aria-label="Active trades">
      {trades.map((trade) => (
        <ActiveTradeCard key={trade.id} trade={trade} now={now} />
      ))}
    </section>
  );
}
