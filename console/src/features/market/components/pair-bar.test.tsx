// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { marketPair } from '../../../testing/fake-api';
import { PairBar } from './pair-bar';

afterEach(cleanup);

const PAIRS = [
  marketPair(),
  marketPair({ symbol: 'EURUSD', display_name: 'EUR/USD', feed_status: 'paused' }),
  marketPair({ symbol: 'ETHUSD', display_name: 'ETH/USD', feed_status: 'diverged' }),
];

describe('PairBar', () => {
  it('shows each pair by its display name, the selected one pressed', () => {
    render(<PairBar pairs={PAIRS} selected="BTCUSDT" onSelect={() => {}} />);
    const btc = screen.getByRole('button', { name: 'BTC/USDT' });
    expect(btc.getAttribute('aria-pressed')).toBe('true');
    expect(btc.getAttribute('title')).toBeNull();
    expect(screen.getAllByRole('button')).toHaveLength(3);
  });

  it("labels a paused pair 'feed paused' and says why in its title and description", () => {
    render(<PairBar pairs={PAIRS} selected="BTCUSDT" onSelect={() => {}} />);
    const eur = screen.getByRole('button', { name: 'EUR/USD feed paused' });
    const why = 'No fresh price for this pair: trading is paused until its feed is back.';
    expect(eur.getAttribute('title')).toBe(why);
    expect(eur.getAttribute('aria-description')).toBe(why);
    expect(eur.getAttribute('aria-pressed')).toBe('false');
  });

  it("labels a pair whose feeds disagree 'feeds disagree'", () => {
    render(<PairBar pairs={PAIRS} selected="BTCUSDT" onSelect={() => {}} />);
    const eth = screen.getByRole('button', { name: 'ETH/USD feeds disagree' });
    expect(eth.getAttribute('title')).toBe(
      "This pair's price feeds disagree: trading is paused until they agree again.",
    );
  });

  it('keeps a pair that is not live selectable, so its chart can still be watched', async () => {
    const onSelect = vi.fn();
    const user = userEvent.setup();
    render(<PairBar pairs={PAIRS} selected="BTCUSDT" onSelect={onSelect} />);
    await user.click(screen.getByRole('button', { name: /ETH\/USD/ }));
    expect(onSelect).toHaveBeenCalledWith('ETHUSD');
  });
});
