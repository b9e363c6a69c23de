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
