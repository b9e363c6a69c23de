// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { ADMIN_FEEDS, calls, fakeAdminApi, json } from '../testing/fake-admin-api';
import { FEEDS_POLL_MS } from '../api/get-admin-feeds';
import { FeedsTab, formatDivergence, formatTickAge } from './feeds-tab';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function rowOf(pair: string): HTMLElement {
  return screen.getByText(pair).closest('tr')!;
}

function cellsOf(pair: string): HTMLElement[] {
  return within(rowOf(pair)).getAllByRole('cell');
}

describe('FeedsTab', () => {
  it("lists every pair's status, both feeds' health and the divergence against the spread", async () => {
    fakeAdminApi({ 'GET /api/admin/feeds': json(ADMIN_FEEDS) });
    renderWithProviders(<FeedsTab />);
    await screen.findByText('EURUSD');
    for (const name of ['Pair', 'Status', 'Primary Feed', 'Reference Feed', 'Divergence / Spread']) {
      expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    }

    const [pair, status, primary, reference, divergence] = cellsOf('EURUSD');
    expect(pair!.textContent).toBe('EURUSD');
    expect(status!.textContent).toBe('Live');
    expect(within(primary!).getByText('OTC')).toBeTruthy();
    expect(within(primary!).getByText('Live')).toBeTruthy();
    expect(within(primary!).getByText('Last tick 0.4 s ago · 2.0 ticks/s')).toBeTruthy();
    expect(within(primary!).getByText('Reconnects 0 · Gaps 0 · Malformed 0')).toBeTruthy();
    expect(reference!.textContent).toBe('—');
    expect(divergence!.textContent).toBe('—');
  });

  it('shows a pair whose feeds disagree, with the last error and the stale reference', async () => {
    fakeAdminApi({ 'GET /api/admin/feeds': json(ADMIN_FEEDS) });
    renderWithProviders(<FeedsTab />);
    await screen.findByText('BTC-X.1');
    const [pair, status, primary, reference, divergence] = cellsOf('BTC-X.1');
    expect(within(pair!).getByText('Disabled')).toBeTruthy();
    expect(status!.textContent).toBe('Feeds disagree');
    expect(within(primary!).getByText('BINANCE · BTC/USDT')).toBeTruthy();
    expect(within(primary!).getByText('Last tick 1.3 s ago · 11.5 ticks/s')).toBeTruthy();
    expect(within(primary!).getByText('Reconnects 3 · Gaps 1 · Malformed 2')).toBeTruthy();
    expect(within(primary!).getByText('socket closed: 1006')).toBeTruthy();
    expect(within(reference!).getByText('KRAKEN · XBT/USDT')).toBeTruthy();
    expect(within(reference!).getByText('Stale')).toBeTruthy();
    expect(within(reference!).getByText('Last tick 7.0 s ago · 0.5 ticks/s')).toBeTruthy();
    expect(divergence!.textContent).toBe('62.3 / 50 bps');
    expect(divergence!.className).toBe('text-down');
  });

  it("labels a paused pair 'Feed paused'", async () => {
    const paused = { ...ADMIN_FEEDS.items[0]!, feed_status: 'paused' as const };
    fakeAdminApi({ 'GET /api/admin/feeds': json({ ...ADMIN_FEEDS, items: [paused] }) });
    renderWithProviders(<FeedsTab />);
    await screen.findByText('EURUSD');
    expect(cellsOf('EURUSD')[1]!.textContent).toBe('Feed paused');
  });

  it('asks for the list again every 2 s while open', async () => {
    const fetchMock = fakeAdminApi({ 'GET /api/admin/feeds': json(ADMIN_FEEDS) });
    renderWithProviders(<FeedsTab />);
    await screen.findByText('EURUSD');
    expect(FEEDS_POLL_MS).toBe(2000);
    await waitFor(() => expect(calls(fetchMock)).toHaveLength(2), { timeout: FEEDS_POLL_MS + 1500 });
  });

  it("toasts 'Failed to load admin data' once while the list keeps failing", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = fakeAdminApi({ 'GET /api/admin/feeds': json({ detail: 'boom' }, 500) });
    renderWithProviders(<FeedsTab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
    await waitFor(() => expect(calls(fetchMock).length).toBeGreaterThan(1), {
      timeout: FEEDS_POLL_MS + 1500,
    });
    expect(toast.error).toHaveBeenCalledTimes(1);
  });
});

describe('feed formats', () => {
  it('writes the last tick age in seconds and the divergence against the spread', () => {
    expect(formatTickAge(null)).toBe('No tick yet');
    expect(formatTickAge(12_345)).toBe('Last tick 12.3 s ago');
    expect(formatDivergence(12.34, 50)).toBe('12.3 / 50 bps');
    expect(formatDivergence(null, 50)).toBe('— / 50 bps');
    expect(formatDivergence(null, null)).toBe('—');
  });
});
