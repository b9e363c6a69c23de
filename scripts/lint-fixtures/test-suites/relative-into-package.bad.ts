// lint-as: e2e/harness/lint-fixture.ts
// expect: import-x/no-relative-packages
import { startInProcessPlatform } from '../../services/platform/src/testing/in-process';

export const start = startInProcessPlatform;
