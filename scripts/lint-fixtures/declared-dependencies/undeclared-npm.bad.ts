// lint-as: services/wallet/src/ledger/lint-fixture.ts
// expect: import-x/no-extraneous-dependencies
import { pino } from 'pino';

export const logger = pino();
