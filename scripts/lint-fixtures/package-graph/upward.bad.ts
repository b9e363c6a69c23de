// lint-as: services/wallet/src/ledger/lint-fixture.ts
// expect: import-x/no-restricted-paths
import { createPlaceTrade } from '@updown/order';

export const place = createPlaceTrade;
