// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEST_USER, fakeSession, renderWithProviders } from '../../../testing/render';
import { bodiesOf, fakeApi, json } from '../../../testing/fake-api';
import type { Dispute } from '../../../lib/disputes';
import { DisputeForm, reasonProblem } from './dispute-form';

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TRADE_ID = '7d0c9a52-3f4e-4b6a-9c1d-2e8f5a6b7c80';
const DISPUTES_URL = `/api/trades/${TRADE_ID}/disputes`;

function filed(verdict: 'confirmed' | 'mismatch'): Dispute {
  return {
    id: 'd1',
    trade_id: TRADE_ID,
    pair: 'BTCUSDT',
    reason: 'The exit price looks wrong',
    status: 'open',
    replay: {
      verdict,
      summary:
        verdict === 'confirmed'
          ? 'Replaying the stored ticks gives the recorded outcome: won, +$8.00'
          : 'Replaying the stored ticks gives lost, -$10.00; the record says won, +$8.00',
      steps: [
        { id: 'exit-tick', title: 'Exit tick', status: 'ok', detail: 'seq 1680 at 12:01:00.123' },
        {
          id: 'outcome',
          title: 'Outcome',
          status: verdict === 'confirmed' ? 'ok' : 'fail',
          detail: verdict === 'confirmed' ? 'won' : 'replayed lost, recorded won',
        },
      ],
      recorded: { outcome: 'won', pnl: 8 },
      replayed: verdict === 'confirmed' ? { outcome: 'won', pnl: 8 } : { outcome: 'lost', pnl: -10 },
    },
    correction: null,
    resolution_note: null,
    created_at: '2026-11-25T10:00:00.000Z',
    resolved_at: null,
  };
}

function renderForm(answer: Response) {
  const fetchMock = fakeApi({ [`POST ${DISPUTES_URL}`]: answer, 'GET /api/disputes': json([]) });
  renderWithProviders(<DisputeForm tradeId={TRADE_ID} onCancel={vi.fn()} />, {
    session: fakeSession({ user: TEST_USER }),
  });
  return fetchMock;
}

describe('reasonProblem', () => {
  it('wants 1 to 500 characters that are not all blank', () => {
    expect(reasonProblem('')).toBe('Please enter a reason');
    expect(reasonProblem('   ')).toBe('Please enter a reason');
    expect(reasonProblem('x'.repeat(500))).toBeNull();
    expect(reasonProblem('x'.repeat(501))).toBe('The reason may have at most 500 characters');
  });
});

describe('DisputeForm', () => {
  it('refuses an empty reason without asking the server, and counts characters up to 500', async () => {
    const fetchMock = renderForm(json(filed('confirmed'), 201));
    const user = userEvent.setup();
    const reason = screen.getByLabelText('Reason');
    expect(reason.getAttribute('maxlength')).toBe('500');
    expect(screen.getByText('0/500')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter a reason');
    expect(fetchMock).not.toHaveBeenCalled();
    await user.type(reason, 'Wrong');
    expect(screen.getByText('5/500')).toBeTruthy();
  });

  it('files the reason and shows at once that the replay confirmed the settlement, with its steps', async () => {
    const fetchMock = renderForm(json(filed('confirmed'), 201));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Reason'), '  The exit price looks wrong ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('settlement confirmed')).toBeTruthy();
    expect(
      screen.getByText('Replaying the stored ticks gives the recorded outcome: won, +$8.00'),
    ).toBeTruthy();
    const steps = within(screen.getByRole('list', { name: 'Replay steps' })).getAllByRole('listitem');
    expect(steps).toHaveLength(2);
    expect(within(steps[0]!).getByText('Exit tick')).toBeTruthy();
    expect(within(steps[0]!).getByText('seq 1680 at 12:01:00.123')).toBeTruthy();
    expect(bodiesOf(fetchMock, 'POST', DISPUTES_URL)).toEqual([{ reason: 'The exit price looks wrong' }]);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it("shows 'mismatch found' when the replay disagrees with the record", async () => {
    renderForm(json(filed('mismatch'), 201));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Reason'), 'The exit price looks wrong');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('mismatch found')).toBeTruthy();
    expect(
      screen.getByText('Replaying the stored ticks gives lost, -$10.00; the record says won, +$8.00'),
    ).toBeTruthy();
    const outcome = within(screen.getByRole('list', { name: 'Replay steps' })).getAllByRole('listitem')[1]!;
    expect(within(outcome).getByText('fail')).toBeTruthy();
  });

  it.each([
    ['DISPUTE_WINDOW_CLOSED', 'Disputes are accepted for 24 hours after settlement'],
    ['DISPUTE_ALREADY_OPEN', 'This trade already has an open dispute'],
    ['TRADE_NOT_SETTLED', 'The trade has not settled yet'],
  ])("shows the server's detail of a %s refusal", async (code, detail) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForm(json({ detail, code }, 409));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Reason'), 'The exit price looks wrong');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByRole('alert')).textContent).toBe(detail);
    // The form stays, so the trader can read why and close it.
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });
});
