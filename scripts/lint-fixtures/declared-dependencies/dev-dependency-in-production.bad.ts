// lint-as: services/settlement/src/lint-fixture.ts
// expect: import-x/no-extraneous-dependencies
import { pino } from 'pino';

export const logger = pino();
