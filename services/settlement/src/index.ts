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
  settledEventId,
  SETTLEMENT_BATCH_MAX,
  type SettleBatchCommand,
  type SettleBatchResult,
  type SettledTrade,
} from './settle-batch';
export {
  applyBonusTurnover,
  type BonusTurnoverResult,
  type CompletedBonus,
  type TurnoverTrade,
} from './bonus-turnover';
export {
  EVIDENCE_AFTER_MS,
  EVIDENCE_BEFORE_MS,
  EVIDENCE_TICKS_MAX,
  loadSettlementEvidence,
  type SettlementEvidence,
  type TickRef,
} from './evidence.repository';
export { loadSettlementConfig, settlementConfigSpec, type SettlementConfig } from './config';
export * from './settlement.domain';
