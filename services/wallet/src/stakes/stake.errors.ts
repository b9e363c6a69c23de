import { DomainError } from '@updown/runtime';

/** A real stake above the share of the active bonus a user may stake. Nothing was written. */
export class BonusStakeCapExceeded extends DomainError {
  constructor(readonly capCents: number) {
    super(
      'STAKE_OUT_OF_BOUNDS',
      `With an active bonus the maximum stake is $${(capCents / 100).toLocaleString('en-US', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      })}`,
    );
    this.name = 'BonusStakeCapExceeded';
  }
}
