// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '../../../testing/render';
import { bodiesOf, calls, fakeAdminApi, json, paymentRequest } from '../testing/fake-admin-api';
import { DepositsTab } from './deposits-tab';
import { WithdrawalsTab } from './withdrawals-tab';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PENDING = paymentRequest();
const APPROVED = paymentRequest({
  id: '22222222-2222-4333-8444-555555555555',
  user_id: '99999999-aaaa-4bbb-8ccc-dddddddddddd',
  amount: 20,
  account_type: 'demo',
  status: 'approved',
});
const REJECTED = paymentRequest({ id: '33333333-2222-4333-8444-555555555555', status: 'rejected' });

const KINDS = [
  {
    name: 'deposits',
    noun: 'Deposit',
    Tab: DepositsTab,
    title: 'Deposit Requests',
    empty: 'No pending deposits',
  },
  {
    name: 'withdrawals',
    noun: 'Withdrawal',
    Tab: WithdrawalsTab,
    title: 'Withdrawal Requests',
    empty: 'No pending withdrawals',
  },
] as const;

describe.each(KINDS)('$title', ({ name, noun, Tab, title, empty }) => {
  const list = `/api/admin/${name}`;
  const decide = `${list}/${PENDING.id}`;

  it('shows the short user id, dollars, account and status, with buttons only on pending rows', async () => {
    fakeAdminApi({ [`GET ${list}`]: json([PENDING, APPROVED, REJECTED]) });
    renderWithProviders(<Tab />);
    expect(screen.getByText(title)).toBeTruthy();
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows).toHaveLength(3);
    const pending = within(rows[0]!);
    expect(pending.getByText('abcdef12…')).toBeTruthy();
    expect(pending.queryByText(PENDING.user_id)).toBeNull();
    expect(pending.getByText('$150.50')).toBeTruthy();
    expect(pending.getByText('real')).toBeTruthy();
    expect(pending.getByText('pending')).toBeTruthy();
    expect(pending.getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(pending.getByRole('button', { name: 'Reject' })).toBeTruthy();
    const approved = within(rows[1]!);
    expect(approved.getByText('99999999…')).toBeTruthy();
    expect(approved.getByText('$20.00')).toBeTruthy();
    expect(approved.getByText('demo')).toBeTruthy();
    expect(approved.getByText('approved').className).toContain('badge--up');
    expect(approved.queryByRole('button')).toBeNull();
    expect(within(rows[2]!).getByText('rejected').className).toContain('badge--down');
    expect(within(rows[2]!).queryByRole('button')).toBeNull();
  });

  it(`says '${empty}' without requests`, async () => {
    fakeAdminApi({ [`GET ${list}`]: json([]) });
    renderWithProviders(<Tab />);
    expect(await screen.findByText(empty)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it.each([
    ['approve', 'Approve', 'approved'],
    ['reject', 'Reject', 'rejected'],
  ] as const)('%ss after confirmation, toasts and reloads the list', async (action, label, done) => {
    let rows = [PENDING];
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const fetchMock = fakeAdminApi({
      [`GET ${list}`]: () => json(rows),
      [`POST ${decide}`]: () => {
        rows = [{ ...PENDING, status: done }];
        return json(rows[0]);
      },
      'GET /api/admin/users': json([]),
    });
    const user = userEvent.setup();
    renderWithProviders(<Tab />);
    await user.click(await screen.findByRole('button', { name: label }));
    expect(confirm).toHaveBeenCalledWith(`${label} this ${noun.toLowerCase()} of $150.50?`);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(`${noun} ${done} successfully`));
    expect(bodiesOf(fetchMock, 'POST', decide)).toEqual([{ action }]);
    expect(await screen.findByText(done)).toBeTruthy();
    expect(screen.queryByRole('button', { name: label })).toBeNull();
  });

  it.each(['approve', 'reject'] as const)(
    `says 'Failed to %s ${noun.toLowerCase()}' when the decision fails`,
    async (action) => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      vi.spyOn(window, 'confirm').mockReturnValue(true);
      fakeAdminApi({
        [`GET ${list}`]: json([PENDING]),
        [`POST ${decide}`]: json({ detail: `${noun} request is already approved` }, 409),
      });
      const user = userEvent.setup();
      renderWithProviders(<Tab />);
      const label = action === 'approve' ? 'Approve' : 'Reject';
      await user.click(await screen.findByRole('button', { name: label }));
      await waitFor(() =>
        expect(toast.error).toHaveBeenCalledWith(`Failed to ${action} ${noun.toLowerCase()}`),
      );
      expect(toast.success).not.toHaveBeenCalled();
    },
  );

  it('sends nothing when the confirmation is declined', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const fetchMock = fakeAdminApi({ [`GET ${list}`]: json([PENDING]) });
    const user = userEvent.setup();
    renderWithProviders(<Tab />);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(calls(fetchMock).filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('disables the row while its decision is in flight, so a double click sends once', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const held: { answer?: (response: Response) => void } = {};
    const fetchMock = fakeAdminApi({
      [`GET ${list}`]: json([PENDING]),
      [`POST ${decide}`]: () => new Promise<Response>((resolve) => (held.answer = resolve)),
      'GET /api/admin/users': json([]),
    });
    const user = userEvent.setup();
    renderWithProviders(<Tab />);
    const approve = await screen.findByRole('button', { name: 'Approve' });
    await user.dblClick(approve);
    await waitFor(() => expect((approve as HTMLButtonElement).disabled).toBe(true));
    expect((screen.getByRole('button', { name: 'Reject' }) as HTMLButtonElement).disabled).toBe(true);
    expect(bodiesOf(fetchMock, 'POST', decide)).toHaveLength(1);
    held.answer!(json({ ...PENDING, status: 'approved' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledTimes(1));
    expect(bodiesOf(fetchMock, 'POST', decide)).toHaveLength(1);
  });

  it("toasts 'Failed to load admin data' when the list fails to load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ [`GET ${list}`]: json({ detail: 'boom' }, 500) });
    renderWithProviders(<Tab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
  });
});

describe('Withdrawal Requests: the trader identity', () => {
  it.each([
    ['verified', 'Verified', 'badge--up'],
    ['pending', 'Pending', 'badge--pending'],
    ['rejected', 'Rejected', 'badge--down'],
    ['not_started', 'Not started', 'badge--neutral'],
  ])("shows a %s trader's identity as '%s' in the Identity column", async (status, label, badge) => {
    fakeAdminApi({ 'GET /api/admin/withdrawals': json([paymentRequest({ identity_status: status })]) });
    renderWithProviders(<WithdrawalsTab />);
    const [, row] = await screen.findAllByRole('row');
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['User', 'Identity', 'Amount', 'Account', 'Status', 'Date', 'Actions']);
    expect(within(row!).getByText(label).className).toContain(badge);
    // The spec's cells keep their texts.
    expect(within(row!).getByText('pending')).toBeTruthy();
    expect(within(row!).getByText('$150.50')).toBeTruthy();
  });

  it('shows a dash when the server does not say, and no Identity column on deposits', async () => {
    fakeAdminApi({
      'GET /api/admin/withdrawals': json([paymentRequest()]),
      'GET /api/admin/deposits': json([paymentRequest()]),
    });
    renderWithProviders(<WithdrawalsTab />);
    const [, row] = await screen.findAllByRole('row');
    expect(within(row!).getByText('—')).toBeTruthy();
    cleanup();
    renderWithProviders(<DepositsTab />);
    await screen.findByText('abcdef12…');
    expect(screen.queryByRole('columnheader', { name: 'Identity' })).toBeNull();
  });
});
