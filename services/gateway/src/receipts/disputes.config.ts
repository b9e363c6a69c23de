import { env, type ConfigOf } from '@updown/runtime';
import { DISPUTE_LIMITS_DEFAULT, type DisputeLimits } from '@updown/settlement';

/**
 * The per-trader dispute caps (settlement's `DisputeLimits`), merged into the gateway's spec
 * (`config.ts`) so one `readEnv` call reports every bad variable. Nothing here reads `process.env`.
 */
export const disputesConfigSpec = {
  DISPUTES_OPEN_PER_TRADER_MAX: env.int(DISPUTE_LIMITS_DEFAULT.openPerTraderMax, { min: 1, max: 10_000 }),
  DISPUTES_PER_TRADER_PER_DAY_MAX: env.int(DISPUTE_LIMITS_DEFAULT.filedPerTraderPerDayMax, {
    min: 1,
    max: 100_000,
  }),
};

export type DisputesConfig = ConfigOf<typeof disputesConfigSpec>;

export function disputeLimits(config: DisputesConfig): DisputeLimits {
  return {
    openPerTraderMax: config.DISPUTES_OPEN_PER_TRADER_MAX,
    filedPerTraderPerDayMax: config.DISPUTES_PER_TRADER_PER_DAY_MAX,
  };
}
