// The tables' kysely types: importing the entry point adds them to the runtime's `Database`.
export type * from './db/tables';
export { settlementMigrations } from './db/migrations/index';
export {
  SETTLEMENT_DEFAULTS,
  SETTLEMENT_GROUP,
  startSettlement,
  type RunningSettlement,
  type SettlementDeps,
  type SettlementOptions,
} from './settlement.service';
export {
  settleBatch,
  SETTLEMENT_BATCH_MAX,
  type SettleBatchCommand,
  type SettleBatchResult,
  type SettledTrade,
} from './settle-batch';
export { SETTLEMENT_PRODUCER, settledEventId, settledTradesSource } from './settled-events';
export { decideTradeTurnover, turnoverByUser, type TurnoverTrade } from './trade-turnover';
export {
  EVIDENCE_AFTER_MS,
  EVIDENCE_BEFORE_MS,
  EVIDENCE_TICKS_MAX,
  loadSettlementEvidence,
  type SettlementEvidence,
  type TickRef,
} from './evidence';
export {
  loadSettlementConfig,
  receiptConfigSpec,
  settlementConfigSpec,
  type SettlementConfig,
} from './config';
export * from './settlement.domain';
export { receiptIdOf } from './receipts/receipt-id';
export {
  issueReceipts,
  RECEIPT_BATCH_MAX,
  RECEIPTS_CURSOR,
  type IssuedReceipts,
} from './receipts/receipt-issuer';
export {
  startReceiptIssuer,
  type ReceiptIssuerDeps,
  type RunningReceiptIssuer,
} from './receipts/receipt-service';
export {
  loadReceipt,
  type ReceiptDocument,
  type ReceiptLookup,
  type ReceiptProof,
} from './receipts/receipt-document';
export type { Receipt, ReceiptTick } from './receipts/receipt.domain';
export {
  checkDisputable,
  correctionCents,
  DISPUTE_REASON_LENGTH_MAX,
  DISPUTE_WINDOW_MS,
  RESOLUTION_NOTE_LENGTH_MAX,
  type DisputeReplay,
  type DisputeStatus,
  type ReplayStep,
} from './disputes/dispute.domain';
export {
  decodeDisputeCursor,
  disputeRange,
  DISPUTE_PAGE_LIMIT_DEFAULT,
  DISPUTE_PAGE_LIMIT_MAX,
  InvalidDisputeQuery,
  pageOf,
  type DisputeFilter,
  type DisputePosition,
} from './disputes/dispute-page.domain';
export {
  DISPUTE_FILING_WINDOW_MS,
  DISPUTE_LIMITS_DEFAULT,
  OPEN_DISPUTES_RETRY_AFTER_SEC,
  type DisputeLimits,
} from './disputes/dispute-quota.domain';
export { openDispute, resolveDispute, type DisputeDeps } from './disputes/disputes.handler';
export {
  DISPUTES_LIST_MAX,
  findDispute,
  listDisputePage,
  listUserDisputes,
  type DisputeRow,
} from './disputes/disputes.repository';
export { replaySettlement } from './disputes/replay';
export {
  RECEIPT_OVERDUE_MS,
  verifyReceipts,
  type ReceiptsReport,
  type ReceiptViolation,
} from './receipts/receipt-audit.read-model';
