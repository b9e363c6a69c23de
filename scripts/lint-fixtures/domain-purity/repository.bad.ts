// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-imports
import { insertTrade } from './trades.repository';

export const insert = insertTrade;
