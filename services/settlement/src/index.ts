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
export { loadSettlementConfig, settlementConfigSpec, type SettlementConfig } from './config';
export * from './settlement.domain';
