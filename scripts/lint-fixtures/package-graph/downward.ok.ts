// lint-as: services/gateway/src/trades/lint-fixture.ts
import { createPlaceTrade } from '@updown/order';

export const place = createPlaceTrade;
