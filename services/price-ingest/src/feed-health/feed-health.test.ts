import { describe, expect, it } from 'vitest';
import { ManualClock } from '@updown/runtime';
import { FeedHealth } from './feed-health';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

function tracker() {
  const clock = new ManualClock(T0);
  const events: string[] = [];
  const health = new FeedHealth(clock, {
    reconnected: (pair, role, provider) => events.push(`reconnected ${pair} ${role} ${provider}`),
    gap: (pair, role, provider) => events.push(`gap ${pair} ${role} ${provider}`),
    malformed: (role, provider) => events.push(`malformed ${role} ${provider}`),
  });
  return { clock, events, health };
}

describe('FeedHealth', () => {
  it('reports the last tick, the rate over the last minute, and the divergence on primary rows', () => {
    const { clock, health } = tracker();
    health.track('BTCUSDT', 'primary', 'BINANCE', 'BTC/USDT');
    health.track('BTCUSDT', 'reference', 'COINBASE', 'BTC-USD');
    for (let i = 0; i < 20; i++) health.tick('BTCUSDT', 'primary', 100 + i, T0 + i * 500);
    health.tick('BTCUSDT', 'reference', 101, T0 + 9_000);
    clock.set(T0 + 10_000);
    const [primary, reference] = health.reports((pair) => (pair === 'BTCUSDT' ? 12.5 : null));
    expect(primary).toMatchObject({
      pair: 'BTCUSDT',
      role: 'primary',
      provider: 'BINANCE',
      sourceSymbol: 'BTC/USDT',
      lastTickAtMs: T0 + 9_500,
      ticksPerSec: 2,
      gaps: 0,
      divergenceBps: 12.5,
    });
    expect(reference).toMatchObject({ role: 'reference', lastTickAtMs: T0 + 9_000, divergenceBps: null });
    expect(health.latestPrice('BTCUSDT', 'primary')).toEqual({ price: 119, atMs: T0 + 9_500 });
  });

  it('counts a silence of 5 s or more as a gap, and reconnects and unreadable messages with their error', () => {
    const { events, health } = tracker();
    health.track('ETHUSD', 'primary', 'KRAKEN', 'ETH/USD');
    health.tick('ETHUSD', 'primary', 3_000, T0 + 1_000);
    health.tick('ETHUSD', 'primary', 3_001, T0 + 5_999);
    health.tick('ETHUSD', 'primary', 3_002, T0 + 11_000);
    const observer = health.observer('primary');
    observer.disconnected('ETHUSD', new Error('socket closed'));
    observer.reconnected('ETHUSD');
    observer.malformed('ETHUSD', new Error('price is not a number'));
    const [report] = health.reports(() => null);
    expect(report).toMatchObject({
      gaps: 1,
      reconnects: 1,
      malformed: 1,
      lastError: 'unreadable message: price is not a number',
    });
    expect(events).toEqual([
      'gap ETHUSD primary KRAKEN',
      'reconnected ETHUSD primary KRAKEN',
      'malformed primary KRAKEN',
    ]);
  });

  it('starts afresh when a pair moves to another provider, and forgets an untracked feed', () => {
    const { health } = tracker();
    health.track('BTCUSDT', 'primary', 'OTC', null);
    health.tick('BTCUSDT', 'primary', 100, T0);
    health.observer('primary').reconnected('BTCUSDT');
    health.track('BTCUSDT', 'primary', 'OTC', null);
    expect(health.reports(() => null)[0]).toMatchObject({ reconnects: 1, lastTickAtMs: T0 });
    health.track('BTCUSDT', 'primary', 'BINANCE', 'BTC/USDT');
    expect(health.reports(() => null)[0]).toMatchObject({
      provider: 'BINANCE',
      reconnects: 0,
      lastTickAtMs: null,
    });
    health.untrack('BTCUSDT', 'primary');
    expect(health.reports(() => null)).toEqual([]);
    health.tick('BTCUSDT', 'primary', 100, T0);
    expect(health.latestPrice('BTCUSDT', 'primary')).toBeUndefined();
  });
});
