// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { bodiesOf, fakeAdminApi, json } from '../testing/fake-admin-api';
import { SettingsTab } from './settings-tab';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function payoutInput(): HTMLInputElement {
  return screen.getByLabelText('Payout Percentage (%)');
}

describe('SettingsTab', () => {
  it('shows 80 until the settings load, then the saved payout in the input and the note', async () => {
    const held: { answer?: (response: Response) => void } = {};
    fakeAdminApi({
      'GET /api/admin/settings': () => new Promise<Response>((resolve) => (held.answer = resolve)),
    });
    renderWithProviders(<SettingsTab />);
    expect(screen.getByText('Platform Settings')).toBeTruthy();
    expect(payoutInput().value).toBe('80');
    expect(screen.getByText('Current: 80% - This affects all new trades')).toBeTruthy();
    await waitFor(() => expect(held.answer).toBeDefined());
    held.answer!(json({ payout_pct: 85.5, require_deposit_approval: true }));
    expect(await screen.findByText('Current: 85.5% - This affects all new trades')).toBeTruthy();
    expect(payoutInput().value).toBe('85.5');
    expect(screen.getByText('Real account deposits require admin approval')).toBeTruthy();
    expect(screen.getByRole('switch').getAttribute('aria-checked')).toBe('true');
  });

  it('switches the approval text with the toggle', async () => {
    fakeAdminApi({ 'GET /api/admin/settings': json({ payout_pct: 80, require_deposit_approval: false }) });
    const user = userEvent.setup();
    renderWithProviders(<SettingsTab />);
    expect(await screen.findByText('Auto-approve all deposits')).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Require Deposit Approval' }));
    expect(screen.getByText('Real account deposits require admin approval')).toBeTruthy();
    expect(screen.queryByText('Auto-approve all deposits')).toBeNull();
  });

  it('Update sends the payout as a decimal with the approval rule, toasts and shows the new value', async () => {
    let saved = { payout_pct: 80, require_deposit_approval: false };
    const onSettingsChanged = vi.fn();
    const fetchMock = fakeAdminApi({
      'GET /api/admin/settings': () => json(saved),
      'POST /api/admin/settings': (body) => {
        saved = body as typeof saved;
        return json(saved);
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<SettingsTab onSettingsChanged={onSettingsChanged} />);
    await screen.findByText('Auto-approve all deposits');
    await user.clear(payoutInput());
    await user.type(payoutInput(), '87.25');
    expect(screen.getByText('Current: 80% - This affects all new trades')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Settings updated successfully'));
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/settings')).toEqual([
      { payout_pct: 87.25, require_deposit_approval: false },
    ]);
    expect(await screen.findByText('Current: 87.25% - This affects all new trades')).toBeTruthy();
    expect(onSettingsChanged).toHaveBeenCalledTimes(1);
  });

  it('Save Settings sends the toggled approval rule', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/settings': json({ payout_pct: 75, require_deposit_approval: false }),
      'POST /api/admin/settings': json({ payout_pct: 75, require_deposit_approval: true }),
    });
    const user = userEvent.setup();
    renderWithProviders(<SettingsTab />);
    await screen.findByText('Current: 75% - This affects all new trades');
    await user.click(screen.getByRole('switch'));
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Settings updated successfully'));
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/settings')).toEqual([
      { payout_pct: 75, require_deposit_approval: true },
    ]);
  });

  it("says 'Failed to update settings' when the server refuses, not its detail", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({
      'GET /api/admin/settings': json({ payout_pct: 80, require_deposit_approval: false }),
      'POST /api/admin/settings': json({ detail: 'Payout percentage must be between 1 and 100' }, 400),
    });
    const user = userEvent.setup();
    renderWithProviders(<SettingsTab />);
    await screen.findByText('Auto-approve all deposits');
    await user.clear(payoutInput());
    await user.type(payoutInput(), '150');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to update settings'));
    expect(toast.success).not.toHaveBeenCalled();
    expect(payoutInput().value).toBe('150');
  });

  it("toasts 'Failed to load admin data' when the settings fail to load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ 'GET /api/admin/settings': json({ detail: 'boom' }, 500) });
    renderWithProviders(<SettingsTab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
    expect(payoutInput().value).toBe('80');
  });
});
