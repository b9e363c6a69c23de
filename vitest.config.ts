import os from 'node:os';
import { defineConfig } from 'vitest/config';
import LongSuitesFirstSequencer from './scripts/test-sequencer';

/**
 * One run for every workspace. Test tiers are named by suffix: `*.test.ts` are fast unit tests,
 * `*.int.test.ts` talk to real PostgreSQL (or a real broker), `*.e2e.test.ts` drive a real browser.
 */
export default defineConfig({
  test: {
    include: [
      'schemas/**/*.test.ts',
      'api-client/**/*.test.ts',
      'services/**/*.test.ts',
      'console/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'load-tests/**/*.test.ts',
      'infra/**/*.test.ts',
      'e2e/**/*.e2e.test.ts',
      'bench/**/*.test.ts',
      'chaos/**/*.test.ts',
      'security/**/*.test.ts',
      'verify/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['services/platform/src/testing/global-setup.ts'],
    setupFiles: ['vitest.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: Number(process.env.TEST_WORKERS) || os.availableParallelism() + 1,
    sequence: { sequencer: LongSuitesFirstSequencer },
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
