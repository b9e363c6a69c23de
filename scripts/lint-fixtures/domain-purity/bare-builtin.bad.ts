// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-imports
import { readFileSync } from 'fs';

export const read = readFileSync;
