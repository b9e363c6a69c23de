// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-imports
import { postSettlements } from '@updown/wallet';

export const post = postSettlements;
