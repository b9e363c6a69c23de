/**
 * Settlement's tables. Their migrations in `./migrations` are the source of truth; these interfaces
 * mirror them for kysely and add them to the runtime's `Database` (declaration merging).
 */

export interface TradeReceiptsTable {
  trade_id: string;
  receipt_id: string;
  user_id: string;
  pair: string;
  /** The receipt's canonical JSON, exactly the bytes signed. */
  body: string;
  key_id: string;
  signature: Buffer;
  entry_checkpoint: number | null;
  exit_checkpoint: number | null;
  issued_at_ms: number;
}

/** Settled trades whose receipt waits for its tick after expiry or its checkpoint. */
export interface ReceiptBacklogTable {
  trade_id: string;
  settled_at_ms: number;
}

export interface TradeDisputesTable {
  id: string;
  trade_id: string;
  user_id: string;
  /** The trade's pair, kept with the dispute so the admin list filters by it. */
  pair: string;
  reason: string;
  status: 'open' | 'confirmed' | 'corrected';
  /** The replay's evidence (`DisputeReplay`), as JSON. */
  replay: unknown;
  correction_cents: number | null;
  ledger_entry_id: number | null;
  resolution_note: string | null;
  resolved_by: string | null;
  created_at_ms: number;
  resolved_at_ms: number | null;
}

declare module '@updown/runtime' {
  interface Database {
    trade_receipts: TradeReceiptsTable;
    trade_disputes: TradeDisputesTable;
    receipt_backlog: ReceiptBacklogTable;
  }
}
