export * from './ledger/ledger.domain';
export * from './ledger/ledger.errors';
export {
  getUserBalances,
  listUserTransactions,
  openUserAccounts,
  transfer,
  transferBatch,
  TRANSFER_BATCH_MAX,
  type BatchCommand,
  type BatchTransferResult,
  type LedgerTransaction,
  type PostedLine,
  type TransferResult,
  type UserBalances,
} from './ledger/ledger.repository';
export { formatReport, verifyLedger, type LedgerReport, type Violation } from './ledger/verify';
