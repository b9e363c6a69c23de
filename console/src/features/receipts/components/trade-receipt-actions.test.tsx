// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEST_USER, fakeSession, renderWithProviders } from '../../../testing/render';
import { fakeApi, json } from '../../../testing/fake-api';
import { TradeReceiptActions } from './trade-receipt-actions';

vi.mock('./receipt-tick-chart', () => ({ ReceiptTickChart: () => null }));

// The dialog is a lazy module: loaded once up front so the click does not wait on the transform.
beforeAll(async () => {
  await import('./receipt-dialog');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = fakeSession({ user: TEST_USER });

function disputeOf(tradeId: string, status: string, correction: number | null = null) {
  return { id: `d-${tradeId}`, trade_id: tradeId, status, correction };
}

describe('TradeReceiptActions', () => {
  it('offers no receipt for a pending trade', () => {
    fakeApi({ 'GET /api/disputes': json([]) });
    renderWithProviders(<TradeReceiptActions trade={{ id: 't1', status: 'pending' }} />, { session });
    expect(screen.queryByRole('button', { name: 'Receipt' })).toBeNull();
  });

  it.each([
    ['open', null, 'Dispute open'],
    ['confirmed', null, 'Dispute confirmed'],
    ['corrected', 18, 'Dispute corrected by +$18.00'],
  ])('shows the trade’s %s dispute, joined by trade id', async (status, correction, label) => {
    fakeApi({
      'GET /api/disputes': json([disputeOf('other', 'open'), disputeOf('t1', status, correction)]),
    });
    renderWithProviders(<TradeReceiptActions trade={{ id: 't1', status: 'won' }} />, { session });
    expect(await screen.findByText(label)).toBeTruthy();
    expect(screen.getAllByText(/^Dispute /)).toHaveLength(1);
  });

  it('opens the Receipt dialog', async () => {
    fakeApi({
      'GET /api/disputes': json([]),
      'GET /api/trades/t1/receipt': json(
        { detail: 'The trade is still pending', code: 'RECEIPT_PENDING' },
        409,
      ),
    });
    const user = userEvent.setup();
    renderWithProviders(<TradeReceiptActions trade={{ id: 't1', status: 'lost' }} />, { session });
    await user.click(screen.getByRole('button', { name: 'Receipt' }));
    expect(await screen.findByRole('dialog', { name: 'Receipt' }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('The trade is still pending')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
