// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { RISK_POLL_MS } from '../api/get-risk-overview';
import { RISK_OVERVIEW, bodiesOf, calls, fakeAdminApi, json, pairRisk } from '../testing/fake-admin-api';
import { RiskTab } from './risk-tab';
import { formatExposure, formatRiskDollars, formatSignedRiskDollars } from './risk-format';

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

function cellsOf(symbol: string): HTMLElement[] {
  return within(rowOf(symbol)).getAllByRole('cell');
}

describe('RiskTab', () => {
  it("shows each side's exposure against its cap with a bar, its payout and open trades, and the house's P/L", async () => {
    fakeAdminApi({ 'GET /api/admin/risk': json(RISK_OVERVIEW) });
    renderWithProviders(<RiskTab />);
    await screen.findByText('BTCUSDT');
    for (const name of ['Pair', 'UP', 'DOWN', 'House P/L', 'Real Trading', 'Actions']) {
      expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    }
    const [pair, up, down, pnl] = cellsOf('BTCUSDT');
    expect(within(pair!).getByText('Payout 80%')).toBeTruthy();
    expect(within(up!).getByText('$1,234.00 / $5,000.00 (24.7%)')).toBeTruthy();
    const bar = within(up!).getByRole('meter', { name: 'UP exposure used' });
    expect(bar.getAttribute('aria-valuenow')).toBe('24.7');
    expect(within(up!).getByText('Payout 72% · 3 open · $1,500.00 staked')).toBeTruthy();
    expect(within(down!).getByText('$0.00 / no cap')).toBeTruthy();
    expect(within(down!).queryByRole('meter')).toBeNull();
    expect(within(down!).getByText('Payout 80% · 0 open · $0.00 staked')).toBeTruthy();
    expect(within(pnl!).getByText('Today -$612.50').className).toBe('text-down');
    expect(within(pnl!).getByText('Window -$520.00')).toBeTruthy();
    expect(within(pnl!).getByText('Breaker at -$500.00 over 60 min')).toBeTruthy();
    expect(within(cellsOf('EURUSD')[3]!).getByText('No loss breaker')).toBeTruthy();
  });

  it('marks a suspended pair with its reason and resumes it', async () => {
    const resumed = {
      ...RISK_OVERVIEW.pairs[0]!,
      suspended: false,
      suspended_at: null,
      suspended_reason: null,
    };
    const fetchMock = fakeAdminApi({
      'GET /api/admin/risk': json(RISK_OVERVIEW),
      'POST /api/admin/risk/pairs/BTCUSDT/resume': json(resumed),
    });
    const onMarketChanged = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<RiskTab onMarketChanged={onMarketChanged} />);
    await screen.findByText('BTCUSDT');
    const btc = within(rowOf('BTCUSDT'));
    expect(btc.getByText('Suspended')).toBeTruthy();
    expect(btc.getByText('House lost $520.00 on BTCUSDT in 60 min (limit $500.00)')).toBeTruthy();
    const eur = within(rowOf('EURUSD'));
    expect(eur.getByText('Open')).toBeTruthy();
    expect(eur.queryByRole('button', { name: 'Resume' })).toBeNull();

    await user.click(btc.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Trading resumed'));
    expect(calls(fetchMock)).toContain('POST /api/admin/risk/pairs/BTCUSDT/resume');
    expect(onMarketChanged).toHaveBeenCalledTimes(1);
  });

  it("toasts the server's detail when the pair was no longer suspended", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({
      'GET /api/admin/risk': json(RISK_OVERVIEW),
      'POST /api/admin/risk/pairs/BTCUSDT/resume': json(
        { detail: 'BTCUSDT is not suspended', code: 'PAIR_NOT_SUSPENDED' },
        409,
      ),
    });
    const user = userEvent.setup();
    renderWithProviders(<RiskTab />);
    await screen.findByText('BTCUSDT');
    await user.click(within(rowOf('BTCUSDT')).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('BTCUSDT is not suspended'));
  });

  it('edits the six settings of a pair, empty inputs meaning none', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/risk': json(RISK_OVERVIEW),
      'PUT /api/admin/risk/pairs/BTCUSDT': json(RISK_OVERVIEW.pairs[0]),
    });
    const user = userEvent.setup();
    renderWithProviders(<RiskTab />);
    await screen.findByText('BTCUSDT');
    await user.click(within(rowOf('BTCUSDT')).getByRole('button', { name: 'Edit' }));
    const form = within(screen.getByRole('form', { name: 'Risk settings of BTCUSDT' }));
    expect((form.getByLabelText('UP exposure cap ($)') as HTMLInputElement).value).toBe('5000');
    expect((form.getByLabelText('DOWN exposure cap ($)') as HTMLInputElement).value).toBe('');
    await user.clear(form.getByLabelText('UP exposure cap ($)'));
    await user.type(form.getByLabelText('DOWN exposure cap ($)'), '20');
    await user.clear(form.getByLabelText('Max skew (points)'));
    await user.type(form.getByLabelText('Max skew (points)'), '15');
    await user.clear(form.getByLabelText('Loss limit ($)'));
    await user.click(form.getByRole('button', { name: 'Save Risk Settings' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Risk settings updated'));
    expect(bodiesOf(fetchMock, 'PUT', '/api/admin/risk/pairs/BTCUSDT')).toEqual([
      {
        exposure_cap_up: null,
        exposure_cap_down: 20,
        skew_max_pct: 15,
        skew_full_at: 2000,
        loss_limit: null,
        loss_window_min: 60,
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Risk settings of BTCUSDT' })).toBeNull();
  });

  it("keeps a refused form open with the server's detail", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const detail = 'The window is 5 to 1440 minutes';
    fakeAdminApi({
      'GET /api/admin/risk': json(RISK_OVERVIEW),
      'PUT /api/admin/risk/pairs/EURUSD': json({ detail, code: 'INVALID_RISK_SETTINGS' }, 400),
    });
    const user = userEvent.setup();
    renderWithProviders(<RiskTab />);
    await screen.findByText('EURUSD');
    await user.click(within(rowOf('EURUSD')).getByRole('button', { name: 'Edit' }));
    const form = within(screen.getByRole('form', { name: 'Risk settings of EURUSD' }));
    await user.clear(form.getByLabelText('Loss window (min)'));
    await user.type(form.getByLabelText('Loss window (min)'), '2');
    await user.click(form.getByRole('button', { name: 'Save Risk Settings' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(detail));
    expect(screen.getByRole('form', { name: 'Risk settings of EURUSD' })).toBeTruthy();
  });

  it('refuses to send a required setting left empty', async () => {
    const fetchMock = fakeAdminApi({ 'GET /api/admin/risk': json(RISK_OVERVIEW) });
    const user = userEvent.setup();
    renderWithProviders(<RiskTab />);
    await screen.findByText('EURUSD');
    await user.click(within(rowOf('EURUSD')).getByRole('button', { name: 'Edit' }));
    const form = within(screen.getByRole('form', { name: 'Risk settings of EURUSD' }));
    await user.clear(form.getByLabelText('Full skew at imbalance ($)'));
    await user.click(form.getByRole('button', { name: 'Save Risk Settings' }));
    expect(toast.error).toHaveBeenCalledWith('Enter a number for Full skew at imbalance ($)');
    expect(calls(fetchMock).filter((call) => call.startsWith('PUT'))).toEqual([]);
  });

  it('saves the trader caps, an empty field meaning no cap', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/risk': json(RISK_OVERVIEW),
      'PUT /api/admin/risk/traders': json({ max_open_stake: null, max_open_trades: 5 }),
    });
    const user = userEvent.setup();
    renderWithProviders(<RiskTab />);
    const form = within(await screen.findByRole('form', { name: 'Trader caps' }));
    expect((form.getByLabelText('Max open stake ($)') as HTMLInputElement).value).toBe('2000');
    await user.clear(form.getByLabelText('Max open stake ($)'));
    await user.type(form.getByLabelText('Max open trades'), '5');
    await user.click(form.getByRole('button', { name: 'Save Trader Caps' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Trader caps updated'));
    expect(bodiesOf(fetchMock, 'PUT', '/api/admin/risk/traders')).toEqual([
      { max_open_stake: null, max_open_trades: 5 },
    ]);
  });

  it('lists the top traders by toxicity with what their scores rest on', async () => {
    fakeAdminApi({ 'GET /api/admin/risk': json(RISK_OVERVIEW) });
    renderWithProviders(<RiskTab />);
    expect(await screen.findByRole('heading', { name: 'Top traders by toxicity' })).toBeTruthy();
    const row = within(screen.getByText('Ann Lee').closest('tr')!);
    expect(row.getByText('ann@example.com')).toBeTruthy();
    expect(row.getByText('82').getAttribute('title')).toBe(
      'Skill 0.90 · Latency 0.75 · Profit 0.60 · 40 trades in 30 days',
    );
    expect(row.getByText('40 (31 won)')).toBeTruthy();
    expect(row.getByText('3.46')).toBeTruthy();
    expect(row.getByText('62.5%')).toBeTruthy();
    expect(row.getByText('2.40')).toBeTruthy();
  });

  it('asks for the overview again every 2 s while open', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/risk': json({ ...RISK_OVERVIEW, pairs: [pairRisk()] }),
    });
    renderWithProviders(<RiskTab />);
    await screen.findByText('EURUSD');
    expect(RISK_POLL_MS).toBe(2000);
    await waitFor(() => expect(calls(fetchMock)).toHaveLength(2), { timeout: RISK_POLL_MS + 1500 });
  });

  it("toasts 'Failed to load admin data' once while the overview keeps failing", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = fakeAdminApi({ 'GET /api/admin/risk': json({ detail: 'boom' }, 500) });
    renderWithProviders(<RiskTab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
    await waitFor(() => expect(calls(fetchMock).length).toBeGreaterThan(1), { timeout: RISK_POLL_MS + 1500 });
    expect(toast.error).toHaveBeenCalledTimes(1);
  });
});

describe('risk formats', () => {
  it('groups dollars by thousands and writes exposure against the cap', () => {
    expect(formatRiskDollars(1234567.5)).toBe('$1,234,567.50');
    expect(formatRiskDollars(-12)).toBe('-$12.00');
    expect(formatSignedRiskDollars(8)).toBe('+$8.00');
    expect(formatSignedRiskDollars(0)).toBe('$0.00');
    expect(formatExposure({ exposure: 1234, cap: 5000, used_pct: 24.7 })).toBe(
      '$1,234.00 / $5,000.00 (24.7%)',
    );
    expect(formatExposure({ exposure: -40, cap: 20, used_pct: 0 })).toBe('-$40.00 / $20.00 (0.0%)');
    expect(formatExposure({ exposure: 10, cap: null, used_pct: null })).toBe('$10.00 / no cap');
  });
});
