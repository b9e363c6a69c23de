import { createHash } from 'node:crypto';
// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEST_USER, fakeSession, renderWithProviders } from '../../../testing/render';
import { calls, fakeApi, json } from '../../../testing/fake-api';
import type { ReceiptDocument } from '../api/get-receipt';
import { FIXTURE_TRADE_ID, signedReceipt } from '../testing/signed-receipt';
import { ReceiptDialog } from './receipt-dialog';
import { formatInstantMs } from './receipt-format';

// The chart draws on a canvas, which jsdom has not: its own test drives it with a fake chart.
vi.mock('./receipt-tick-chart', () => ({
  ReceiptTickChart: ({ document }: { document: ReceiptDocument }) => (
    <div data-testid="receipt-chart">{document.proof.exit?.segment.length} exit ticks</div>
  ),
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const RECEIPT_URL = `/api/trades/${FIXTURE_TRADE_ID}/receipt`;
const owner = fakeSession({ user: TEST_USER });

/** A receipt settled two minutes ago, so it may still be disputed. */
function recentReceipt() {
  return signedReceipt(Date.now() - 120_000);
}

/** jsdom's Blob has no text(); its FileReader reads one. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

function renderDialog(routes: Parameters<typeof fakeApi>[0], session = owner) {
  const fetchMock = fakeApi({ 'GET /api/disputes': json([]), ...routes });
  const onClose = vi.fn();
  renderWithProviders(<ReceiptDialog tradeId={FIXTURE_TRADE_ID} onClose={onClose} />, { session });
  return { fetchMock, onClose };
}

describe('ReceiptDialog', () => {
  it("shows the server's detail while the receipt is pending", async () => {
    renderDialog({
      [`GET ${RECEIPT_URL}`]: json(
        {
          detail: 'The receipt is not ready: its checkpoint is signed within a minute',
          code: 'RECEIPT_PENDING',
        },
        409,
      ),
    });
    expect(screen.getByRole('dialog', { name: 'Receipt' })).toBeTruthy();
    expect(
      await screen.findByText('The receipt is not ready: its checkpoint is signed within a minute'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Verify' })).toBeNull();
  });

  it('shows what was settled, the rule in words, the exact expiry and the chart', async () => {
    const { document } = recentReceipt();
    renderDialog({ [`GET ${RECEIPT_URL}`]: json(document) });
    const details = within((await screen.findByText('Pair')).closest('dl')!);
    const { receipt } = document;
    expect(details.getByText('BTCUSDT')).toBeTruthy();
    expect(details.getByText('UP')).toBeTruthy();
    expect(details.getByText('$10.00')).toBeTruthy();
    expect(details.getByText('80%')).toBeTruthy();
    expect(details.getByText('won')).toBeTruthy();
    expect(
      details.getByText(`Exit ${receipt.exitTick!.price} above entry ${receipt.entryPrice}: UP won`),
    ).toBeTruthy();
    expect(details.getByText('+$8.00')).toBeTruthy();
    expect(details.getByText(formatInstantMs(receipt.expiryAtMs))).toBeTruthy();
    expect(formatInstantMs(receipt.expiryAtMs)).toMatch(/\d{2}:\d{2}:\d{2}\.\d{3} UTC$/);
    expect(screen.getByTestId('receipt-chart').textContent).toBe('6 exit ticks');
  });

  it("verifies a genuine receipt in the browser against the published keys: 'Receipt verified'", async () => {
    const { document, keySet } = recentReceipt();
    const { fetchMock } = renderDialog({
      [`GET ${RECEIPT_URL}`]: json(document),
      'GET /.well-known/updown-keys.json': json(keySet),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Receipt verified')).toBeTruthy();
    const steps = within(screen.getByRole('list', { name: 'Verification steps' })).getAllByRole('listitem');
    expect(steps.map((step) => step.dataset.step)).toEqual([
      'format',
      'receipt-signature',
      'checkpoint-signatures',
      'checkpoint-binding',
      'entry-chain',
      'exit-chain',
      'exit-tick-rule',
      'entry-tick-rule',
      'consistency',
      'outcome',
      'pnl',
    ]);
    for (const step of steps) expect(within(step).getByText('ok')).toBeTruthy();
    // The key set's thumbprint, for the trader to compare with the published one (docs/receipts.md, 6.1).
    const [key] = keySet.keys;
    const reduced = `[{"crv":"Ed25519","kid":"${key!.kid}","kty":"OKP","status":"active","x":"${key!.x}"}]`;
    const thumbprint = createHash('sha256').update(reduced, 'utf8').digest('base64url');
    expect(screen.getByText(thumbprint).closest('p')?.textContent).toBe(
      `Key set thumbprint ${thumbprint}: compare it with the one the platform publishes before relying on the verdict.`,
    );
    // The key set is public: fetched without the session's token.
    const keyCall = fetchMock.mock.calls.find(([url]) => url === '/.well-known/updown-keys.json')!;
    expect((keyCall[1]?.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it("names the first failed step of a tampered receipt: 'Receipt invalid: …'", async () => {
    const { document, keySet } = recentReceipt();
    // A P/L raised after signing: the signature no longer covers the receipt.
    const tampered = { ...document, receipt: { ...document.receipt, pnlCents: 900 } };
    renderDialog({
      [`GET ${RECEIPT_URL}`]: json(tampered),
      'GET /.well-known/updown-keys.json': json(keySet),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    const verdict = await screen.findByText(/^Receipt invalid: /);
    expect(verdict.textContent).toMatch(/^Receipt invalid: Receipt signature: /);
    const steps = within(screen.getByRole('list', { name: 'Verification steps' }));
    const signature = steps
      .getAllByRole('listitem')
      .find((item) => item.dataset.step === 'receipt-signature')!;
    expect(within(signature).getByText('fail')).toBeTruthy();
    const pnl = steps.getAllByRole('listitem').find((item) => item.dataset.step === 'pnl')!;
    expect(within(pnl).getByText('fail')).toBeTruthy();
  });

  it('downloads receipt-<tradeId>.json: the document plus the key set under "keys"', async () => {
    const { document, keySet } = recentReceipt();
    renderDialog({
      [`GET ${RECEIPT_URL}`]: json(document),
      'GET /.well-known/updown-keys.json': json(keySet),
    });
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: vi.fn((blob: Blob) => {
        blobs.push(blob);
        return 'blob:receipt';
      }),
      revokeObjectURL: vi.fn(),
    });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe(`receipt-${FIXTURE_TRADE_ID}.json`);
    expect(JSON.parse(await readBlob(blobs[0]!))).toEqual({ ...document, keys: keySet });
  });

  it('offers Dispute to the owner of a recent settlement without an open dispute', async () => {
    const { document } = recentReceipt();
    renderDialog({ [`GET ${RECEIPT_URL}`]: json(document) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Dispute' }));
    expect(screen.getByLabelText('Reason')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  it('offers no Dispute while one is open, to someone else, or a day after settlement', async () => {
    const { document } = recentReceipt();
    const open = [{ id: 'd1', trade_id: FIXTURE_TRADE_ID, status: 'open' }];
    const { fetchMock } = renderDialog({
      [`GET ${RECEIPT_URL}`]: json(document),
      'GET /api/disputes': json(open),
    });
    await screen.findByRole('button', { name: 'Verify' });
    await waitFor(() => expect(calls(fetchMock)).toContain('GET /api/disputes'));
    expect(screen.queryByRole('button', { name: 'Dispute' })).toBeNull();
    cleanup();

    renderDialog(
      { [`GET ${RECEIPT_URL}`]: json(document) },
      fakeSession({ user: { ...TEST_USER, id: 'x' } }),
    );
    await screen.findByRole('button', { name: 'Verify' });
    expect(screen.queryByRole('button', { name: 'Dispute' })).toBeNull();
    cleanup();

    const twoDaysAgo = Date.now() - 2 * 24 * 3600 * 1000;
    renderDialog({ [`GET ${RECEIPT_URL}`]: json(signedReceipt(twoDaysAgo).document) });
    await screen.findByRole('button', { name: 'Verify' });
    expect(screen.queryByRole('button', { name: 'Dispute' })).toBeNull();
  });

  it('closes on Escape and on the close button', async () => {
    const { onClose } = renderDialog({ [`GET ${RECEIPT_URL}`]: json(recentReceipt().document) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    screen.getByRole('dialog').focus();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
