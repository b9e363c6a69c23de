import { env, readEnv, runtimeConfigSpec, type ConfigOf } from '@updown/runtime';
import { SETTLEMENT_BATCH_MAX } from './settle-batch';
import { SETTLEMENT_DEFAULTS } from './settlement.service';

/** The receipt issuer's variables: in the settlement service's spec and the single process's. */
export const receiptConfigSpec = {
  /** How often settled trades are looked at for receipts (each waits for its covering checkpoint). */
  RECEIPT_INTERVAL_MS: env.int(1_000, { min: 100, max: 600_000 }),
  /** How long a receipt may wait for the tick after its expiry (a dead feed) before the wait is logged as overdue. */
  // An operator's setting since the first release: environment names outlive the code's naming.
  // eslint-disable-next-line id-match
  RECEIPT_WAIT_MAX_MS: env.int(300_000, { min: 1_000, max: 86_400_000 }),
};

/** settlement's variables on top of the ones every process reads; the only file here that reads `process.env`. */
export const settlementConfigSpec = {
  ...runtimeConfigSpec,
  ...receiptConfigSpec,
  /** Trades per settlement transaction. */
  SETTLEMENT_BATCH_SIZE: env.int(SETTLEMENT_DEFAULTS.batchSize, { min: 1, max: SETTLEMENT_BATCH_MAX }),
  /** Most pending trades held in memory; the overdue sweep settles the rest. */
  SETTLEMENT_SCHEDULE_MAX: env.int(SETTLEMENT_DEFAULTS.scheduleCapacity, { min: 1_000, max: 10_000_000 }),
  SETTLEMENT_SWEEP_INTERVAL_MS: env.int(SETTLEMENT_DEFAULTS.sweepIntervalMs, { min: 500, max: 600_000 }),
  /** Owner shares settled side by side, each on its own connection: 1, 2, 4, 8 or 16. */
  SETTLEMENT_PARTITIONS: env.int(SETTLEMENT_DEFAULTS.partitions, { min: 1, max: 16 }),
  /** `/healthz`, `/readyz` and `/metrics` when running alone. */
  SETTLEMENT_HOST: env.string('127.0.0.1'),
  SETTLEMENT_PORT: env.port(8082),
};

export type SettlementConfig = ConfigOf<typeof settlementConfigSpec>;

export function loadSettlementConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): SettlementConfig {
  return readEnv(settlementConfigSpec, source);
}
