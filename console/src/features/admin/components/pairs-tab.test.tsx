// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { ADMIN_PAIRS, bodiesOf, calls, fakeAdminApi, json } from '../testing/fake-admin-api';
import { PairsTab } from './pairs-tab';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function rowOf(symbol: string): HTMLElement {
  return screen.getByText(symbol).closest('tr')!;
}

describe('PairsTab', () => {
  it('lists every pair with its provider and Active or Disabled status', async () => {
    fakeAdminApi({ 'GET /api/admin/pairs': json(ADMIN_PAIRS) });
    renderWithProviders(<PairsTab />);
    await screen.findByText('EURUSD');
    for (const name of ['Symbol', 'Display Name', 'Provider', 'Status', 'Actions']) {
      expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    }
    const eur = within(rowOf('EURUSD'));
    expect(eur.getByText('EUR/USD')).toBeTruthy();
    expect(eur.getByText('OTC')).toBeTruthy();
    expect(eur.getByText('Active')).toBeTruthy();
    expect(eur.getByRole('button', { name: 'Disable' })).toBeTruthy();
    const btc = within(rowOf('BTC-X.1'));
    expect(btc.getByText('Disabled')).toBeTruthy();
    expect(btc.getByRole('button', { name: 'Enable' })).toBeTruthy();
  });

  it("shows an exchange feed's symbol beside its provider, and its reference", async () => {
    fakeAdminApi({ 'GET /api/admin/pairs': json(ADMIN_PAIRS) });
    renderWithProviders(<PairsTab />);
    await screen.findByText('BTC-X.1');
    const btc = within(rowOf('BTC-X.1'));
    expect(btc.getByText('BINANCE · BTC/USDT')).toBeTruthy();
    expect(btc.getByText('Reference: KRAKEN · XBT/USDT (50 bps)')).toBeTruthy();
    expect(within(rowOf('EURUSD')).queryByText(/Reference/)).toBeNull();
  });

  it('adds a pair with an upper-cased symbol and the OTC provider, then reloads the list', async () => {
    const onPairsChanged = vi.fn();
    const fetchMock = fakeAdminApi({
      'GET /api/admin/pairs': json(ADMIN_PAIRS),
      'POST /api/admin/pairs': json(ADMIN_PAIRS[0], 201),
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab onPairsChanged={onPairsChanged} />);
    await screen.findByText('EURUSD');
    await user.type(screen.getByLabelText('Symbol'), 'gbpusd');
    expect((screen.getByLabelText('Symbol') as HTMLInputElement).value).toBe('GBPUSD');
    await user.type(screen.getByLabelText('Display Name'), 'GBP/USD');
    await user.click(screen.getByRole('button', { name: 'Add Pair' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Trading pair added successfully'));
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/pairs')).toEqual([
      { symbol: 'GBPUSD', display_name: 'GBP/USD', provider: 'OTC' },
    ]);
    expect(calls(fetchMock).filter((call) => call === 'GET /api/admin/pairs')).toHaveLength(2);
    expect((screen.getByLabelText('Symbol') as HTMLInputElement).value).toBe('');
    expect(onPairsChanged).toHaveBeenCalledTimes(1);
  });

  it("refuses an empty field with 'Please fill all fields' and sends nothing", async () => {
    const fetchMock = fakeAdminApi({ 'GET /api/admin/pairs': json([]) });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    await user.type(screen.getByLabelText('Symbol'), 'XAUUSD');
    await user.click(screen.getByRole('button', { name: 'Add Pair' }));
    expect(toast.error).toHaveBeenCalledWith('Please fill all fields');
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/pairs')).toHaveLength(0);
  });

  it.each([
    [json({ detail: 'Pair GBPUSD already exists', code: 'PAIR_EXISTS' }, 409), 'Pair GBPUSD already exists'],
    [new Response('oops', { status: 502 }), 'Failed to add pair'],
  ])('shows the server detail or the fallback when adding fails', async (answer, message) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ 'GET /api/admin/pairs': json([]), 'POST /api/admin/pairs': answer });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    await user.type(screen.getByLabelText('Symbol'), 'GBPUSD');
    await user.type(screen.getByLabelText('Display Name'), 'GBP/USD');
    await user.click(screen.getByRole('button', { name: 'Add Pair' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message));
    expect(toast.success).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Symbol') as HTMLInputElement).value).toBe('GBPUSD');
  });

  it("disables an active pair with 'Pair disabled' and enables a disabled one with 'Pair enabled'", async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/pairs': json(ADMIN_PAIRS),
      'PATCH /api/admin/pairs/EURUSD': json({ ...ADMIN_PAIRS[0], active: false }),
      'PATCH /api/admin/pairs/BTC-X.1': json({ ...ADMIN_PAIRS[1], active: true }),
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    await screen.findByText('EURUSD');
    await user.click(within(rowOf('EURUSD')).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pair disabled'));
    expect(bodiesOf(fetchMock, 'PATCH', '/api/admin/pairs/EURUSD')).toEqual([{ active: false }]);
    await user.click(within(rowOf('BTC-X.1')).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pair enabled'));
    expect(bodiesOf(fetchMock, 'PATCH', '/api/admin/pairs/BTC-X.1')).toEqual([{ active: true }]);
  });

  it("says 'Failed to update pair' when the toggle fails, whatever the server says", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({
      'GET /api/admin/pairs': json(ADMIN_PAIRS),
      'PATCH /api/admin/pairs/EURUSD': json({ detail: 'Unknown pair: EURUSD' }, 404),
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    await screen.findByText('EURUSD');
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to update pair'));
  });

  it('deletes only after confirmation, with the URL-encoded symbol', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const fetchMock = fakeAdminApi({
      'GET /api/admin/pairs': json([{ ...ADMIN_PAIRS[0], symbol: 'A/B' }]),
      'DELETE /api/admin/pairs/A%2FB': json({ status: 'ok' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    const button = await screen.findByRole('button', { name: 'Delete' });
    await user.click(button);
    expect(confirm).toHaveBeenCalledWith('Delete A/B? This cannot be undone.');
    expect(calls(fetchMock).filter((call) => call.startsWith('DELETE'))).toEqual([]);
    await user.click(button);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pair deleted successfully'));
    expect(calls(fetchMock).filter((call) => call.startsWith('DELETE'))).toEqual([
      'DELETE /api/admin/pairs/A%2FB',
    ]);
  });

  it.each([
    [
      json(
        { detail: 'Cannot delete EURUSD while it has pending trades', code: 'PAIR_HAS_PENDING_TRADES' },
        409,
      ),
      'Cannot delete EURUSD while it has pending trades',
    ],
    [new Response('', { status: 500 }), 'Failed to delete pair'],
  ])('shows the server detail or the fallback when deleting fails', async (answer, message) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    fakeAdminApi({
      'GET /api/admin/pairs': json([ADMIN_PAIRS[0]]),
      'DELETE /api/admin/pairs/EURUSD': answer,
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("toasts 'Failed to load admin data' when the list fails to load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ 'GET /api/admin/pairs': json({ detail: 'boom' }, 500) });
    renderWithProviders(<PairsTab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
  });
});

describe('PairsTab feeds', () => {
  function feedForm(symbol: string) {
    return within(screen.getByRole('form', { name: `Feed of ${symbol}` }));
  }

  it('adds a pair with an exchange feed and a reference', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/pairs': json([]),
      'POST /api/admin/pairs': json(ADMIN_PAIRS[1], 201),
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    const form = within(screen.getByRole('form', { name: 'Add Trading Pair' }));
    expect((form.getByLabelText('Provider') as HTMLSelectElement).value).toBe('OTC');
    // The exchange's symbol and the reference's details only show when they apply.
    expect(form.queryByLabelText('Exchange Symbol')).toBeNull();
    expect(form.queryByLabelText('Reference Symbol')).toBeNull();
    await user.type(form.getByLabelText('Symbol'), 'btcx');
    await user.type(form.getByLabelText('Display Name'), 'BTC X');
    await user.selectOptions(form.getByLabelText('Provider'), 'BINANCE');
    await user.type(form.getByLabelText('Exchange Symbol'), ' BTC/USDT ');
    // A pair's reference is another exchange than its own feed.
    const references = form.getByLabelText('Reference Provider');
    expect(
      within(references)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['None', 'COINBASE', 'KRAKEN']);
    await user.selectOptions(references, 'KRAKEN');
    await user.type(form.getByLabelText('Reference Symbol'), 'XBT/USDT');
    await user.type(form.getByLabelText('Spread (bps)'), '50');
    await user.click(form.getByRole('button', { name: 'Add Pair' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Trading pair added successfully'));
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/pairs')).toEqual([
      {
        symbol: 'BTCX',
        display_name: 'BTC X',
        provider: 'BINANCE',
        provider_symbol: 'BTC/USDT',
        reference_provider: 'KRAKEN',
        reference_symbol: 'XBT/USDT',
        reference_spread_bps: 50,
      },
    ]);
    expect((form.getByLabelText('Provider') as HTMLSelectElement).value).toBe('OTC');
  });

  it("edits a pair's feed in place, saves it with a PUT and reloads the pairs", async () => {
    const onPairsChanged = vi.fn();
    const saved = { ...ADMIN_PAIRS[1], provider: 'COINBASE', provider_symbol: 'BTC-USDT' };
    const fetchMock = fakeAdminApi({
      'GET /api/admin/pairs': json(ADMIN_PAIRS),
      'PUT /api/admin/pairs/BTC-X.1/feed': json(saved),
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab onPairsChanged={onPairsChanged} />);
    await screen.findByText('BTC-X.1');
    const toggle = within(rowOf('BTC-X.1')).getByRole('button', { name: 'Feed' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const form = feedForm('BTC-X.1');
    // The editor opens on the pair's stored feed.
    expect((form.getByLabelText('Provider') as HTMLSelectElement).value).toBe('BINANCE');
    expect((form.getByLabelText('Exchange Symbol') as HTMLInputElement).value).toBe('BTC/USDT');
    expect((form.getByLabelText('Reference Provider') as HTMLSelectElement).value).toBe('KRAKEN');
    expect((form.getByLabelText('Reference Symbol') as HTMLInputElement).value).toBe('XBT/USDT');
    expect((form.getByLabelText('Spread (bps)') as HTMLInputElement).value).toBe('50');
    await user.selectOptions(form.getByLabelText('Provider'), 'COINBASE');
    await user.clear(form.getByLabelText('Exchange Symbol'));
    await user.type(form.getByLabelText('Exchange Symbol'), 'BTC-USDT');
    await user.clear(form.getByLabelText('Spread (bps)'));
    await user.type(form.getByLabelText('Spread (bps)'), '25');
    await user.click(form.getByRole('button', { name: 'Save Feed' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Feed updated'));
    expect(bodiesOf(fetchMock, 'PUT', '/api/admin/pairs/BTC-X.1/feed')).toEqual([
      {
        provider: 'COINBASE',
        provider_symbol: 'BTC-USDT',
        reference_provider: 'KRAKEN',
        reference_symbol: 'XBT/USDT',
        reference_spread_bps: 25,
      },
    ]);
    await waitFor(() =>
      expect(calls(fetchMock).filter((call) => call === 'GET /api/admin/pairs')).toHaveLength(2),
    );
    expect(onPairsChanged).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('form', { name: 'Feed of BTC-X.1' })).toBeNull();
  });

  it('moves a pair back to OTC without a reference, sending only the provider', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/pairs': json(ADMIN_PAIRS),
      'PUT /api/admin/pairs/BTC-X.1/feed': json({ ...ADMIN_PAIRS[0], symbol: 'BTC-X.1' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    await screen.findByText('BTC-X.1');
    await user.click(within(rowOf('BTC-X.1')).getByRole('button', { name: 'Feed' }));
    const form = feedForm('BTC-X.1');
    await user.selectOptions(form.getByLabelText('Provider'), 'OTC');
    await user.selectOptions(form.getByLabelText('Reference Provider'), 'None');
    await user.click(form.getByRole('button', { name: 'Save Feed' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Feed updated'));
    expect(bodiesOf(fetchMock, 'PUT', '/api/admin/pairs/BTC-X.1/feed')).toEqual([{ provider: 'OTC' }]);
  });

  it("shows the server's detail when the feed is refused, and keeps the editor open", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const detail = "BINANCE needs the exchange's symbol for the pair, e.g. BTC/USDT";
    const fetchMock = fakeAdminApi({
      'GET /api/admin/pairs': json(ADMIN_PAIRS),
      'PUT /api/admin/pairs/EURUSD/feed': json({ detail, code: 'INVALID_FEED' }, 400),
    });
    const onPairsChanged = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<PairsTab onPairsChanged={onPairsChanged} />);
    await screen.findByText('EURUSD');
    await user.click(within(rowOf('EURUSD')).getByRole('button', { name: 'Feed' }));
    const form = feedForm('EURUSD');
    await user.selectOptions(form.getByLabelText('Provider'), 'BINANCE');
    await user.click(form.getByRole('button', { name: 'Save Feed' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(detail));
    expect(bodiesOf(fetchMock, 'PUT', '/api/admin/pairs/EURUSD/feed')).toEqual([{ provider: 'BINANCE' }]);
    expect(toast.success).not.toHaveBeenCalled();
    expect(onPairsChanged).not.toHaveBeenCalled();
    expect(screen.getByRole('form', { name: 'Feed of EURUSD' })).toBeTruthy();
  });

  it('closes the editor on Cancel without saving', async () => {
    const fetchMock = fakeAdminApi({ 'GET /api/admin/pairs': json(ADMIN_PAIRS) });
    const user = userEvent.setup();
    renderWithProviders(<PairsTab />);
    await screen.findByText('EURUSD');
    await user.click(within(rowOf('EURUSD')).getByRole('button', { name: 'Feed' }));
    await user.click(feedForm('EURUSD').getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Feed of EURUSD' })).toBeNull();
    expect(calls(fetchMock).filter((call) => call.startsWith('PUT'))).toEqual([]);
  });
});
