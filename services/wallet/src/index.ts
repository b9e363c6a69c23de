// The tables' kysely types: importing the entry point adds them to the runtime's `Database`.
export type * from './db/tables';
export { walletMigrations } from './db/migrations/index';
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
export {
  assertAccountsHeld,
  claimRows,
  heldLockLevel,
  lockAccounts,
  lockActiveBonuses,
  lockBooks,
  lockWallets,
  LOCK_LEVELS,
  LockOrderViolation,
  type LockedBonus,
  type LockLevel,
} from './locks/lock-protocol';
export { lockUserWallet } from './commands/user-wallet';
export { DEMO_GRANT_CENTS, openWallet } from './opening/open-wallet';
export { auditDecision } from './payments/decision-audit';
export {
  PAYMENT_RECOVERY_INTERVAL_MS,
  recoverPayments,
  startPaymentRecovery,
  type PaymentRecoveryJob,
} from './payments/payment-recovery';
export * from './stakes/stake.domain';
export { BonusStakeCapExceeded } from './stakes/stake.errors';
export {
  holdStakes,
  lockStakeAccounts,
  planStakeHolds,
  postStakeHolds,
  stakeTermsColumns,
  type HeldStake,
  type StakeHold,
  type StakeHoldPlan,
  type StakeTermsColumns,
} from './stakes/stake.repository';
export {
  entryIdsByKey,
  lockSettlementAccounts,
  postSettlements,
  SETTLEMENT_ENTRY_KINDS,
  type SettlementEntryKind,
  type SettlementPosting,
} from './settlements/settlement-postings';
export {
  correctionKey,
  postSettlementCorrection,
  SETTLEMENT_CORRECTION_KIND,
  type SettlementCorrection,
} from './settlements/settlement-correction';
export { applyBonusTurnover, type CompletedBonus } from './bonus/bonus-turnover';
export * from './commands/wallet.domain';
export * from './bonus/bonus.domain';
export type { PaymentIntentsTable } from './db/tables';
export {
  cancelBonus,
  deposit,
  loadWallet,
  requestWithdrawal,
  type CommandOutcome,
  type WalletDeps,
} from './commands/wallet.commands';
export {
  clearedUsers,
  clearWithdrawals,
  IdentityNotVerified,
  isClearedForWithdrawal,
} from './clearance/withdrawal-clearance';
export { decideRequest, type Decision } from './commands/decisions';
export {
  listRequests,
  type PaymentRequestRow,
  type PaymentRequestKind,
} from './commands/requests.repository';
export type { BonusRow } from './bonus/bonus.repository';
export { lockPlatformSettings, readSettings, type PlatformSettings } from './settings/settings.repository';
export { checkPayoutPct, InvalidSettings } from './settings/settings.domain';
export { changePlatformSettings, type AdminSettings } from './settings/settings.handler';
export {
  BONUS_EXPIRY_BATCH_MAX,
  BONUS_EXPIRY_INTERVAL_MS_DEFAULT,
  startBonusExpiry,
  sweepOrphanBonusBalances,
  type BonusExpiryDeps,
  type BonusExpiryJob,
  type BonusExpiryRun,
} from './bonus/bonus-expiry';
export { mockPaymentProvider, type PaymentProvider, type PaymentResult } from './payments/payment-provider';
export {
  PAYMENT_INTENT_RECOVERY_AGE_MS_DEFAULT,
  PAYMENT_INTENT_RECOVERY_BATCH_MAX,
  PAYMENT_INTENT_WAIT_MS,
  recordPaymentResult,
  recoverPaymentIntents,
  type DecidedRequest,
  type DecisionHooks,
  type PaymentDeps,
  type RecordableResult,
  type RecordedPayment,
  type RecoveryDeps,
  type RecoveryRun,
} from './payments/payment-intents';
export type { PaymentIntentRow } from './payments/payment-intents.repository';
export { cashBalancesOf, houseResult, type CashBalances } from './queries/balances.repository';
