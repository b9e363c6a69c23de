import { useEffect, useState } from 'react';
import { nextClockTickMs, retainExpiring } from './chart-trade-timeline';

/**
 * The time the chart's trade layer renders at. It moves on each whole second, for the countdowns,
 * and exactly when an expiry line has to start flashing, stop flashing or go.
 */
export function useTradeClock(expiries: readonly number[]): number {
  const [now, setNow] = useState(() => Date.now());
  // A string key keeps the effect from restarting on every poll that returns the same expiries.
  const key = expiries.join(',');
  useEffect(() => {
    const due = key === '' ? [] : key.split(',').map(Number);
    const timer = setTimeout(() => setNow(Date.now()), nextClockTickMs(due, Date.now()));
    return () => clearTimeout(timer);
  }, [now, key]);
  return now;
}

/**
 * The listed trades plus those that expired and dropped off the list less than the removal delay
 * ago, so their expiry lines can finish flashing. `incoming` must keep its identity between polls
 * that return the same data (React Query's data does). `reset` keeps nothing beyond `incoming`.
 */
export function useExpiringTrades<T extends { id: string; expiry_ts: number }>(
  incoming: readonly T[],
  reset: boolean,
): readonly T[] {
  const [state, setState] = useState<{ source: readonly T[]; trades: readonly T[] }>(() => ({
    source: incoming,
    trades: incoming,
  }));
  if (state.source !== incoming) {
    // Adjusting state while rendering (instead of in an effect) avoids drawing one frame without
    // the lines that are about to be kept.
    const trades = reset ? incoming : retainExpiring(state.trades, incoming, Date.now());
    setState({ source: incoming, trades });
    return trades;
  }
  return state.trades;
}
