import { Suspense, lazy, useState } from 'react';
import { createPortal } from 'react-dom';
import { disputeBadgeClass, disputeStatusLabel } from '../../../lib/disputes';
import { useDisputes } from '../api/get-disputes';

/*
 * The dialog holds the chart library and the verifier: it is fetched on the first click, so the
 * trading page and the dashboard download neither until a trader asks for a receipt.
 */
const ReceiptDialog = lazy(() =>
  import('./receipt-dialog').then((module) => ({ default: module.ReceiptDialog })),
);

export interface ReceiptTradeRef {
  id: string;
  /** `pending` until the trade settles; a pending trade has no receipt. */
  status: string;
}

/** The trade's latest dispute, joined by trade id from the caller's disputes (newest first). */
export function TradeDisputeBadge({ tradeId }: { tradeId: string }) {
  const disputes = useDisputes();
  const latest = disputes.data?.find((dispute) => dispute.trade_id === tradeId);
  if (!latest) return null;
  return <span className={disputeBadgeClass(latest.status)}>{disputeStatusLabel(latest)}</span>;
}

/**
 * What a settled trade in the history and the dashboard's table gets: its dispute status and the
 * Receipt button that opens the receipt dialog (above the page, outside the list it sits in).
 */
export function TradeReceiptActions({ trade }: { trade: ReceiptTradeRef }) {
  const [open, setOpen] = useState(false);
  if (trade.status === 'pending') return null;
  return (
    <span className="trade-receipt-actions">
      <TradeDisputeBadge tradeId={trade.id} />
      <button type="button" className="button button--small" onClick={() => setOpen(true)}>
        Receipt
      </button>
      {open &&
        createPortal(
          <Suspense
            fallback={
              <div className="modal-backdrop">
                <p className="modal muted">Loading...</p>
              </div>
            }
          >
            <ReceiptDialog tradeId={trade.id} onClose={() => setOpen(false)} />
          </Suspense>,
          document.body,
        )}
    </span>
  );
}
