import { DomainError } from '@updown/runtime/errors';

/**
 * Trading cannot take this placement now: the order service cannot be reached or failed, or too
 * many placements are already waiting. 503; the trader may retry (with the same key).
 */
export class OrderServiceUnavailable extends DomainError {
  constructor() {
    super('ORDER_UNAVAILABLE', 'Trading is temporarily unavailable, please try again', 503);
  }
}
