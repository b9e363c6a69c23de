// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { bodiesOf, fakeApi, json } from '../../../testing/fake-api';
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
      payout_pct: 80,
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
        expect(button.getAttribute('aria-describedby')!.split(' ')).toContain(notice.id);
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

  it('shows the payout offered on UP and on DOWN, and sends the one shown for the direction', async () => {
    const fetchMock = fakeApi({ 'POST /api/trades/place': json({}, 201) });
    const user = userEvent.setup();
    renderWithProviders(
      <TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} payoutUpPct={72} payoutDownPct={80} />,
    );
    expect(screen.getByTestId('payout-up').textContent).toBe('Payout 72%');
    expect(screen.getByTestId('payout-down').textContent).toBe('Payout 80%');
    // The pair's own payout and its profit stay as the spec has them.
    expect(screen.getByText('80%')).toBeTruthy();
    expect(screen.getByText('+$8.00')).toBeTruthy();
    const up = screen.getByRole('button', { name: /UP/ });
    expect(up.getAttribute('aria-describedby')).toBe(screen.getByTestId('payout-up').id);

    await user.click(up);
    await user.click(screen.getByRole('button', { name: /DOWN/ }));
    const sent = bodiesOf(fetchMock, 'POST', '/api/trades/place') as {
      direction: string;
      payout_pct: number;
    }[];
    expect(sent.map(({ direction, payout_pct }) => [direction, payout_pct])).toEqual([
      ['UP', 72],
      ['DOWN', 80],
    ]);
  });

  it('disables real UP and DOWN on a suspended pair, with a notice, but keeps demo trading open', async () => {
    const fetchMock = fakeApi({ 'POST /api/trades/place': json({}, 201) });
    const user = userEvent.setup();
    renderWithProviders(
      <TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} realTrading="suspended" />,
    );
    const buttons = () =>
      [/UP/, /DOWN/].map((name) => screen.getByRole('button', { name }) as HTMLButtonElement);
    // Demo is the default account: nothing to say, and it trades.
    expect(screen.queryByRole('status')).toBeNull();
    expect(buttons().map((button) => button.disabled)).toEqual([false, false]);

    await user.click(screen.getByRole('button', { name: 'Real' }));
    const notice = screen.getByRole('status');
    expect(notice.textContent).toBe(
      'Real trading on BTCUSDT is suspended by risk controls; demo trading is still open',
    );
    for (const button of buttons()) {
      expect(button.disabled).toBe(true);
      expect(button.getAttribute('aria-describedby')!.split(' ')).toContain(notice.id);
      await user.click(button);
    }
    expect(fetchMock).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Demo' }));
    expect(screen.queryByRole('status')).toBeNull();
    await user.click(screen.getByRole('button', { name: /UP/ }));
    expect(bodiesOf(fetchMock, 'POST', '/api/trades/place')).toMatchObject([{ account_type: 'demo' }]);
  });

  it('asks the page to reload the pairs after a PAYOUT_CHANGED refusal, with its detail in the toast', async () => {
    const detail = 'The payout for UP on BTCUSDT is now 72%; please check it and place the trade again';
    fakeApi({ 'POST /api/trades/place': json({ detail, code: 'PAYOUT_CHANGED' }, 409) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onMarketStale = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} onMarketStale={onMarketStale} />,
    );
    await user.click(screen.getByRole('button', { name: /UP/ }));
    expect(toast.error).toHaveBeenCalledWith(detail);
    expect(onMarketStale).toHaveBeenCalledTimes(1);
  });

  it('leaves the pairs alone after a refusal that is not about the pair', async () => {
    const detail = 'Open real trades are capped at 3 per trader';
    fakeApi({ 'POST /api/trades/place': json({ detail, code: 'OPEN_TRADES_CAP_REACHED' }, 409) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onMarketStale = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <TradePanel pair="BTCUSDT" currentPrice={95000} payoutPct={80} onMarketStale={onMarketStale} />,
    );
    await user.click(screen.getByRole('button', { name: /DOWN/ }));
    expect(toast.error).toHaveBeenCalledWith(detail);
    expect(onMarketStale).not.toHaveBeenCalled();
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
