// lint-as: console/src/lib/lint-fixture.ts
// expect: import-x/no-restricted-paths
import { applyTick } from '../features/market/components/live-bars';

export const fold = applyTick;
