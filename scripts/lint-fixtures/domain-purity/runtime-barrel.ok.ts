// lint-as: services/order/src/trades/lint-fixture.domain.ts
import { DomainError } from '@updown/runtime/errors';

export const refused = new DomainError('validation', 'no');
