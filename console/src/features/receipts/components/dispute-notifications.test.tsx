// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { TEST_USER, fakeSession, renderWithProviders } from '../../../testing/render';
import { fakeApi, json } from '../../../testing/fake-api';
import type { Dispute } from '../../../lib/disputes';
import { DisputeNotifications } from './dispute-notifications';
import { loadShownIds } from './dispute-toasts';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() } }));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

function dispute(id: string, status: Dispute['status'], correction: number | null = null): Dispute {
  return {
    id,
    trade_id: `trade-${id}`,
    pair: 'BTCUSDT',
    reason: 'The exit looks wrong',
    status,
    replay: {
      verdict: 'mismatch',
      summary: '',
      steps: [],
      recorded: { outcome: 'lost', pnl: -10 },
      replayed: { outcome: 'won', pnl: 8 },
    },
    correction,
    resolution_note: status === 'open' ? null : 'Checked',
    created_at: new Date(Date.now() - 3600_000).toISOString(),
    resolved_at: status === 'open' ? null : new Date(Date.now() - 1000).toISOString(),
  };
}

function renderNotifications() {
  return renderWithProviders(<DisputeNotifications userId={TEST_USER.id} />, {
    session: fakeSession({ user: TEST_USER }),
  });
}

describe('DisputeNotifications', () => {
  it('toasts each resolution once and remembers it across reloads', async () => {
    const fetchMock = fakeApi({
      'GET /api/disputes': json([
        dispute('b', 'corrected', 18),
        dispute('a', 'confirmed'),
        dispute('c', 'open'),
      ]),
    });
    renderNotifications();
    await waitFor(() => expect(toast.success).toHaveBeenCalledTimes(2));
    expect(vi.mocked(toast.success).mock.calls.map(([title]) => title)).toEqual([
      'Dispute resolved: settlement confirmed',
      'Dispute resolved: corrected by +$18.00',
    ]);
    expect(loadShownIds(TEST_USER.id)).toEqual(['b', 'a']);

    // A reload: a new app with the same browser storage.
    cleanup();
    vi.mocked(toast.success).mockClear();
    renderNotifications();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('says nothing while disputes are open', async () => {
    const fetchMock = fakeApi({ 'GET /api/disputes': json([dispute('c', 'open')]) });
    renderNotifications();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(toast.success).not.toHaveBeenCalled();
    expect(loadShownIds(TEST_USER.id)).toEqual([]);
  });
});
