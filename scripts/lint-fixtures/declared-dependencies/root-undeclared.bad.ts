// lint-as: chaos/harness/lint-fixture.ts
// expect: import-x/no-extraneous-dependencies
import { pino } from 'pino';

export const logger = pino();
