// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { AdminDispute } from '../../../lib/disputes';
import { renderWithProviders } from '../../../testing/render';
import { bodiesOf, calls, fakeAdminApi, json } from '../testing/fake-admin-api';
import { DisputesTab } from './disputes-tab';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function dispute(id: string, overrides: Partial<AdminDispute> = {}): AdminDispute {
  return {
    id,
    trade_id: `${id}1234-aaaa-4bbb-8ccc-dddddddddddd`,
    pair: 'BTCUSDT',
    reason: 'The exit price looks wrong',
    status: 'open',
    replay: {
      verdict: 'confirmed',
      summary: 'Replaying the stored ticks gives the recorded outcome',
      steps: [
        { id: 'exit-tick', title: 'Exit tick', status: 'ok', detail: 'seq 1680 at 12:01:00.123' },
        { id: 'outcome', title: 'Outcome', status: 'ok', detail: 'won' },
      ],
      recorded: { outcome: 'won', pnl: 8 },
      replayed: { outcome: 'won', pnl: 8 },
    },
    correction: null,
    resolution_note: null,
    created_at: '2026-11-25T10:00:00.000Z',
    resolved_at: null,
    user_id: 'u-1',
    user_email: 'ann@example.com',
    resolved_by: null,
    ...overrides,
  };
}

const CONFIRMED_REPLAY = dispute('aaaa');
const MISMATCH = dispute('bbbb', {
  user_email: 'bob@example.com',
  replay: {
    ...CONFIRMED_REPLAY.replay,
    verdict: 'mismatch',
    summary: 'The replay gives lost, the record says won',
    replayed: { outcome: 'lost', pnl: -10 },
  },
});
const RESOLVED = dispute('cccc', {
  status: 'confirmed',
  user_email: 'cy@example.com',
  resolution_note: 'Checked the ticks',
  resolved_by: 'admin@example.com',
  resolved_at: '2026-11-25T11:00:00.000Z',
});

function rowOf(email: string) {
  return within(screen.getByText(email).closest('tr')!);
}

/** The list answers by the `status` query parameter, in one page. */
function listRoute(byStatus: Record<string, AdminDispute[]>) {
  return (_body: unknown, url: string) =>
    json({
      disputes: byStatus[new URL(url, 'http://x').searchParams.get('status') ?? ''] ?? [],
      next_cursor: null,
    });
}

/** What the tab asks for first: the open disputes, a page of 20. */
const OPEN_PAGE = 'GET /api/admin/disputes?status=open&limit=20';

describe('DisputesTab', () => {
  it('lists open disputes with the trade, trader, reason, time and the replay verdict, its steps on demand', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/disputes': listRoute({ open: [CONFIRMED_REPLAY, MISMATCH] }),
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('ann@example.com');
    expect(calls(fetchMock)).toEqual([OPEN_PAGE]);
    for (const name of ['Trade', 'Pair', 'Trader', 'Reason', 'Created', 'Replay', 'Decision'])
      expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    const ann = rowOf('ann@example.com');
    expect(ann.getByText('aaaa1234…')).toBeTruthy();
    expect(ann.getByText('BTCUSDT')).toBeTruthy();
    expect(ann.getByText('The exit price looks wrong')).toBeTruthy();
    expect(ann.getByText(new Date(CONFIRMED_REPLAY.created_at).toLocaleString())).toBeTruthy();
    expect(ann.getByText('confirmed')).toBeTruthy();
    expect(rowOf('bob@example.com').getByText('mismatch')).toBeTruthy();

    expect(screen.queryByRole('list', { name: 'Replay steps' })).toBeNull();
    await user.click(ann.getByRole('button', { name: 'Show steps' }));
    const steps = within(screen.getByRole('list', { name: 'Replay steps' }));
    expect(steps.getByText('Exit tick')).toBeTruthy();
    expect(steps.getByText('seq 1680 at 12:01:00.123')).toBeTruthy();
    expect(screen.getByText('Replaying the stored ticks gives the recorded outcome')).toBeTruthy();
    await user.click(ann.getByRole('button', { name: 'Hide steps' }));
    expect(screen.queryByRole('list', { name: 'Replay steps' })).toBeNull();
  });

  it('filters by status', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/disputes': listRoute({ open: [CONFIRMED_REPLAY], confirmed: [RESOLVED] }),
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('ann@example.com');
    expect(screen.getByRole('button', { name: 'Open' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Confirmed' }));
    expect(await screen.findByText('cy@example.com')).toBeTruthy();
    expect(screen.queryByText('ann@example.com')).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Resolution' })).toBeTruthy();
    const cy = rowOf('cy@example.com');
    expect(cy.getByText('Checked the ticks')).toBeTruthy();
    expect(cy.queryByRole('button', { name: 'Confirm' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Corrected' }));
    expect(await screen.findByText('No corrected disputes')).toBeTruthy();
    expect(calls(fetchMock)).toEqual([
      OPEN_PAGE,
      'GET /api/admin/disputes?status=confirmed&limit=20',
      'GET /api/admin/disputes?status=corrected&limit=20',
    ]);
  });

  it('enables Correct only when the replay found a mismatch', async () => {
    fakeAdminApi({ 'GET /api/admin/disputes': listRoute({ open: [CONFIRMED_REPLAY, MISMATCH] }) });
    renderWithProviders(<DisputesTab />);
    await screen.findByText('ann@example.com');
    const ann = rowOf('ann@example.com');
    expect((ann.getByRole('button', { name: 'Correct' }) as HTMLButtonElement).disabled).toBe(true);
    expect((ann.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(false);
    const bob = rowOf('bob@example.com');
    expect((bob.getByRole('button', { name: 'Correct' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('confirms with the note, toasts, and reloads the list', async () => {
    let resolved = false;
    const fetchMock = fakeAdminApi({
      'GET /api/admin/disputes': (_body, url) =>
        listRoute({ open: resolved ? [] : [CONFIRMED_REPLAY], confirmed: resolved ? [RESOLVED] : [] })(
          _body,
          url,
        ),
      'POST /api/admin/disputes/aaaa/resolve': () => {
        resolved = true;
        return json({ ...CONFIRMED_REPLAY, status: 'confirmed' });
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('ann@example.com');
    const ann = rowOf('ann@example.com');
    await user.click(ann.getByRole('button', { name: 'Confirm' }));
    expect(toast.error).toHaveBeenCalledWith('Please enter a note');
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/disputes/aaaa/resolve')).toEqual([]);

    await user.type(ann.getByLabelText('Note'), ' Ticks match the record ');
    await user.click(ann.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Dispute confirmed'));
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/disputes/aaaa/resolve')).toEqual([
      { decision: 'confirm', note: 'Ticks match the record' },
    ]);
    expect(await screen.findByText('No open disputes')).toBeTruthy();
  });

  it('corrects a mismatch', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/disputes': listRoute({ open: [MISMATCH] }),
      'POST /api/admin/disputes/bbbb/resolve': json({ ...MISMATCH, status: 'corrected', correction: 18 }),
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('bob@example.com');
    const bob = rowOf('bob@example.com');
    await user.type(bob.getByLabelText('Note'), 'Exit tick was wrong');
    await user.click(bob.getByRole('button', { name: 'Correct' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Dispute corrected'));
    expect(bodiesOf(fetchMock, 'POST', '/api/admin/disputes/bbbb/resolve')).toEqual([
      { decision: 'correct', note: 'Exit tick was wrong' },
    ]);
  });

  it.each([
    ['OWN_DISPUTE', 403, 'You cannot resolve your own dispute'],
    ['DISPUTE_ALREADY_RESOLVED', 409, 'This dispute was already resolved'],
    ['NOTHING_TO_CORRECT', 409, 'The replay found nothing to correct'],
  ])("toasts the server's detail of a %s refusal", async (code, status, detail) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = fakeAdminApi({
      'GET /api/admin/disputes': listRoute({ open: [MISMATCH] }),
      'POST /api/admin/disputes/bbbb/resolve': json({ detail, code }, status),
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('bob@example.com');
    const bob = rowOf('bob@example.com');
    await user.type(bob.getByLabelText('Note'), 'Exit tick was wrong');
    await user.click(bob.getByRole('button', { name: 'Correct' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(detail));
    expect(toast.success).not.toHaveBeenCalled();
    // The list reloads: another admin may have resolved it meanwhile.
    await waitFor(() => expect(calls(fetchMock).filter((call) => call === OPEN_PAGE)).toHaveLength(2));
  });

  it('pages with the cursor: "Load more" appends the older disputes until there are no more', async () => {
    const newer = Array.from({ length: 20 }, (_, i) =>
      dispute(`f${String(i).padStart(3, '0')}`, { user_email: `flood${i}@example.com` }),
    );
    const older = dispute('0ld1', { user_email: 'quiet@example.com', reason: 'My exit was wrong' });
    const fetchMock = fakeAdminApi({
      'GET /api/admin/disputes': (_body, url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'page-2'
          ? json({ disputes: [older], next_cursor: null })
          : json({ disputes: newer, next_cursor: 'page-2' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('flood0@example.com');
    expect(screen.queryByText('quiet@example.com')).toBeNull();
    expect(screen.getByText('20 disputes shown; older ones follow')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(rowOf('quiet@example.com').getByText('My exit was wrong')).toBeTruthy();
    expect(screen.getByText('flood19@example.com')).toBeTruthy();
    expect(screen.getByText('21 disputes shown')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls(fetchMock)).toEqual([OPEN_PAGE, `${OPEN_PAGE}&cursor=page-2`]);
  });

  it('filters by trader on Filter, keeps the status, and clears back to everyone', async () => {
    const fetchMock = fakeAdminApi({
      'GET /api/admin/disputes': (_body, url) =>
        json({
          disputes: new URL(url, 'http://x').searchParams.get('trader')
            ? [MISMATCH]
            : [CONFIRMED_REPLAY, MISMATCH],
          next_cursor: null,
        }),
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('ann@example.com');
    await user.type(screen.getByLabelText('Trader'), ' Bob@Example.com ');
    expect(calls(fetchMock)).toEqual([OPEN_PAGE]);
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.queryByText('ann@example.com')).toBeNull());
    expect(screen.getByText('bob@example.com')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('ann@example.com')).toBeTruthy();
    expect((screen.getByLabelText('Trader') as HTMLInputElement).value).toBe('');
    expect(calls(fetchMock)).toEqual([
      OPEN_PAGE,
      'GET /api/admin/disputes?status=open&trader=Bob%40Example.com&limit=20',
      OPEN_PAGE,
    ]);
  });

  it("shows the server's detail when a filter is refused", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({
      'GET /api/admin/disputes': (_body, url) =>
        new URL(url, 'http://x').searchParams.get('trader')
          ? json({ detail: 'trader is a user id or an email address', code: 'VALIDATION' }, 400)
          : json({ disputes: [CONFIRMED_REPLAY], next_cursor: null }),
    });
    const user = userEvent.setup();
    renderWithProviders(<DisputesTab />);
    await screen.findByText('ann@example.com');
    await user.type(screen.getByLabelText('Trader'), 'bob{Enter}');
    expect(await screen.findByText('trader is a user id or an email address')).toBeTruthy();
  });

  it("toasts 'Failed to load admin data' when the list fails to load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAdminApi({ 'GET /api/admin/disputes': json({ detail: 'boom' }, 500) });
    renderWithProviders(<DisputesTab />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to load admin data'));
  });
});
