// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-imports
import { randomUUID } from 'node:crypto';

export const tradeId = randomUUID;
