import { DomainError } from '@updown/runtime/errors';
import { dollarsText } from './risk.domain';

/**
 * What an admin's change of the risk settings may do (README "Risk controls"): a trader's own caps
 * stay under the defaults, and only a suspended pair can be resumed. The commands in
 * `risk-settings.handler.ts` apply these rules under the rows' locks.
 */

/** Caps on a trader's open real trades, the defaults or their own; null for none. */
export interface TraderCaps {
  readonly openStakeCentsMax: number | null;
  readonly openTradesMax: number | null;
}

export class InvalidRiskSettings extends DomainError {
  constructor(detail: string) {
    super('INVALID_RISK_SETTINGS', detail);
  }
}

export class PairNotSuspended extends DomainError {
  constructor(pair: string) {
    super('PAIR_NOT_SUSPENDED', `Real trading on ${pair} is not suspended`);
  }
}

/**
 * A trader's own caps may not be above the defaults: such a cap would never apply (`effectiveCap`
 * takes the lower), so the admin is told instead of having it stored. With no default, any cap goes.
 */
export function checkTraderCaps(own: TraderCaps, defaults: TraderCaps): void {
  if (
    own.openStakeCentsMax !== null &&
    defaults.openStakeCentsMax !== null &&
    own.openStakeCentsMax > defaults.openStakeCentsMax
  ) {
    throw new InvalidRiskSettings(
      `A trader's cap can only be lower than the default (open stake ${dollarsText(defaults.openStakeCentsMax)})`,
    );
  }
  if (
    own.openTradesMax !== null &&
    defaults.openTradesMax !== null &&
    own.openTradesMax > defaults.openTradesMax
  ) {
    throw new InvalidRiskSettings(
      `A trader's cap can only be lower than the default (${defaults.openTradesMax} open trades)`,
    );
  }
}

/** Only a pair whose loss breaker tripped can be resumed. */
export function checkResumable(pair: string, suspendedAtMs: number | null): void {
  if (suspendedAtMs === null) throw new PairNotSuspended(pair);
}
