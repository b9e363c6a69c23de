import { derivedEventId } from '@updown/runtime';

/** A trade's receipt id, derived from the trade id: the settled event can name it before it is issued. */
export function receiptIdOf(tradeId: string): string {
  return derivedEventId('updown.receipt.v1', tradeId);
}
