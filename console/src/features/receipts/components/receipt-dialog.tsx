import { useEffect, useRef, useState, type ReactNode } from 'react';
import { errorDetail } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { useDisputes } from '../api/get-disputes';
import { isReceiptPending, useReceipt, type ReceiptDocument } from '../api/get-receipt';
import { DisputeForm } from './dispute-form';
import {
  canDispute,
  formatCents,
  formatInstantMs,
  formatPayout,
  formatSignedCents,
  outcomeClass,
  ruleInWords,
} from './receipt-format';
import { ReceiptTickChart } from './receipt-tick-chart';
import { ReceiptVerification } from './receipt-verification';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="receipt-details__row">
      <dt className="muted">{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function ReceiptDetails({ document }: { document: ReceiptDocument }) {
  const { receipt } = document;
  return (
    <dl className="receipt-details">
      <Detail term="Pair">{receipt.pair}</Detail>
      <Detail term="Direction">
        <span className={receipt.direction === 'UP' ? 'text-up' : 'text-down'}>{receipt.direction}</span>
      </Detail>
      <Detail term="Stake">{formatCents(receipt.stakeCents)}</Detail>
      <Detail term="Payout">{formatPayout(receipt.payoutBasisPoints)}</Detail>
      <Detail term="Outcome">
        <span className={outcomeClass(receipt.outcome)}>{receipt.outcome}</span>
      </Detail>
      <Detail term="Rule">{ruleInWords(receipt)}</Detail>
      <Detail term="P/L">
        <span className={receipt.pnlCents > 0 ? 'text-up' : receipt.pnlCents < 0 ? 'text-down' : undefined}>
          {formatSignedCents(receipt.pnlCents)}
        </span>
      </Detail>
      <Detail term="Expiry">{formatInstantMs(receipt.expiryAtMs)}</Detail>
    </dl>
  );
}

/** The Dispute button, for the owner within a day of settlement and without an open dispute. */
function DisputeSection({ document }: { document: ReceiptDocument }) {
  const { user } = useSession();
  const disputes = useDisputes();
  const [open, setOpen] = useState(false);
  // Checked when the receipt shows; a dialog left open past the window is refused by the server.
  const [nowMs] = useState(() => Date.now());
  const allowed = disputes.isSuccess && canDispute(document.receipt, user?.id, disputes.data, nowMs);

  if (open) return <DisputeForm tradeId={document.receipt.tradeId} onCancel={() => setOpen(false)} />;
  if (!allowed) return null;
  return (
    <button type="button" className="button button--outline" onClick={() => setOpen(true)}>
      Dispute
    </button>
  );
}

function ReceiptBody({ tradeId }: { tradeId: string }) {
  const receipt = useReceipt(tradeId);
  if (receipt.data) {
    return (
      <>
        <ReceiptDetails document={receipt.data} />
        <ReceiptTickChart document={receipt.data} />
        <ReceiptVerification document={receipt.data} />
        <DisputeSection document={receipt.data} />
      </>
    );
  }
  if (receipt.error) {
    // While pending the server says why (the trade is open, or its checkpoint is not signed yet);
    // the query asks again until the receipt is there.
    const pending = isReceiptPending(receipt.error);
    return (
      <p className={pending ? 'muted' : 'text-down'} role={pending ? 'status' : 'alert'}>
        {errorDetail(receipt.error, 'Failed to load the receipt')}
      </p>
    );
  }
  return <p className="muted">Loading...</p>;
}

/** The modal receipt of one trade: what was settled and why, the ticks, Verify, Download, Dispute. */
export function ReceiptDialog({ tradeId, onClose }: { tradeId: string; onClose(): void }) {
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialogRef.current?.focus();
  }, []);

  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        ref={dialogRef}
        className="modal receipt-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="receipt-dialog-title"
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        <header className="modal__header">
          <h2 id="receipt-dialog-title">Receipt</h2>
          <button type="button" className="button button--ghost" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </header>
        <div className="modal__body">
          <ReceiptBody tradeId={tradeId} />
        </div>
      </div>
    </div>
  );
}
