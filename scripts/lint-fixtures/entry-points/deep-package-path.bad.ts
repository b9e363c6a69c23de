// lint-as: services/gateway/src/trades/lint-fixture.ts
// expect: no-restricted-imports
import { createPlaceTrade } from '@updown/order/src/trades/place-trade.handler';

export const place = createPlaceTrade;
