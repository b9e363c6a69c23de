import type { KeySet } from '../api/get-key-set';
import type { ReceiptDocument } from '../api/get-receipt';

/**
 * The file a trader keeps: the document exactly as served plus the key set it was checked against
 * under a top-level `keys`, so `npx updown-verify receipt-<tradeId>.json` needs nothing else.
 */
export function receiptFile(document: ReceiptDocument, keySet: KeySet): { name: string; text: string } {
  return {
    name: `receipt-${document.receipt.tradeId}.json`,
    text: `${JSON.stringify({ ...document, keys: keySet }, null, 2)}\n`,
  };
}

/** Saves `text` as a download named `name`, through a short-lived object URL. */
export function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file by the time the click handler returns; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
