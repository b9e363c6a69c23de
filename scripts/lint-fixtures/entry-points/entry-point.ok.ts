// lint-as: services/settlement/src/testing/lint-fixture.ts
import { createPlaceTrade } from '@updown/order';

export const place = createPlaceTrade;
