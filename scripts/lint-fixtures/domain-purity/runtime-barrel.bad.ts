// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-imports
import { DomainError } from '@updown/runtime';

export const refused = new DomainError('validation', 'no');
