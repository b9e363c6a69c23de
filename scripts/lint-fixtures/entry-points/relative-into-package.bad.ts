// lint-as: services/settlement/src/testing/lint-fixture.ts
// expect: import-x/no-relative-packages
import { createPlaceTrade } from '../../../order/src/trades/place-trade.handler';

export const place = createPlaceTrade;
