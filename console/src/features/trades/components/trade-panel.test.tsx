// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { TradePanel } from './trade-panel';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('TradePanel', () => {
  it.each(['', '0', '-5'])("refuses the amount '%s' with 'Please enter a valid amount'", async (amount) => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} />);
    const input = screen.getByLabelText('Amount ($)');
    await user.clear(input);
    if (amount) await user.type(input, amount);
    await user.click(screen.getByRole('button', { name: /UP/ }));
    expect(toast.error).toHaveBeenCalledWith('Please enter a valid amount');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the payout and the profit it would make', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TradePanel pair="EURUSD" currentPrice={1.16} payoutPct={85} />);
    expect(screen.getByText('1.16000')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '100' }));
    expect(screen.getByText('85%')).toBeTruthy();
    expect(screen.getByText('+$85.00')).toBeTruthy();
  });

  it('places a trade with an idempotency key and toasts the result', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({}), { status: 201 }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} />);
    await user.click(screen.getByRole('button', { name: /DOWN/ }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/trades/place');
    expect(JSON.parse(init.body as string)).toEqual({
      pair: 'BTCUSDT',
      direction: 'DOWN',
      amount: 10,
      duration: 60,
      account_type: 'demo',
    });
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(toast.success).toHaveBeenCalledWith('Trade placed: DOWN', {
      description: '$10.00 for 60 seconds',
    });
  });

  it("shows the server's detail when placing fails", async () => {
    const body = JSON.stringify({ detail: 'Insufficient balance', code: 'INSUFFICIENT_FUNDS' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status: 422 })),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithProviders(<TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} />);
    await user.click(screen.getByRole('button', { name: /UP/ }));
    expect(toast.error).toHaveBeenCalledWith('Insufficient balance');
  });

  it.each([
    ['paused', 'feed paused', 'No fresh price for this pair: trading is paused until its feed is back.'],
    [
      'diverged',
      'feeds disagree',
      "This pair's price feeds disagree: trading is paused until they agree again.",
    ],
  ] as const)(
    'says why a %s pair cannot be traded and disables UP and DOWN',
    async (feedStatus, label, description) => {
      const fetchMock = vi.fn();
      vi.stubGlobal('fetch', fetchMock);
      const user = userEvent.setup();
      renderWithProviders(
        <TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} feedStatus={feedStatus} />,
      );
      const notice = screen.getByRole('status');
      expect(within(notice).getByText(label)).toBeTruthy();
      expect(within(notice).getByText(description)).toBeTruthy();
      for (const name of [/UP/, /DOWN/]) {
        const button = screen.getByRole('button', { name });
        expect((button as HTMLButtonElement).disabled).toBe(true);
        expect(button.getAttribute('aria-describedby')).toBe(notice.id);
        await user.click(button);
      }
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('shows no notice and enables UP and DOWN while the pair is live', () => {
    renderWithProviders(<TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} feedStatus="live" />);
    expect(screen.queryByRole('status')).toBeNull();
    expect((screen.getByRole('button', { name: /UP/ }) as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByRole('button', { name: /DOWN/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows the page's actions under each trade of the History tab", async () => {
    const trade = {
      id: 't1',
      pair: 'BTCUSDT',
      direction: 'UP',
      amount: 10,
      entry_price: 95000,
      exit_price: 95010,
      payout_pct: 80,
      status: 'won',
      pnl: 8,
      created_at: '2026-11-21T10:00:00.000Z',
      expiry_ts: 1_800_000_000,
      account_type: 'demo',
      duration: 60,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify([trade]))),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <TradePanel
        pair="BTCUSDT"
        currentPrice={95000}
        payoutPct={80}
        renderTradeActions={(shown) => <button type="button">Receipt of {shown.id}</button>}
      />,
    );
    await user.click(screen.getByRole('tab', { name: 'History' }));
    expect(await screen.findByRole('button', { name: 'Receipt of t1' })).toBeTruthy();
  });
});
