import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names. */
export const SLOWEST_FILES_SHOWN = 10;

export interface FileTiming {
  /** The file's path from the repository's root. */
  readonly file: string;
  /** Its tests and hooks, plus importing it (what a worker spent on it). */
  readonly durationMs: number;
  readonly tests: number;
}

export interface TestCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/** The run's closing lines: the slowest files first, then the counts, last so a script can read them. */
export function summaryLines(files: readonly FileTiming[], counts: TestCounts): string[] {
  const slowest = [...files].sort((a, b) => b.durationMs - a.durationMs).slice(0, SLOWEST_FILES_SHOWN);
  const lines: string[] = [];
  if (slowest.length > 0) {
    lines.push(`slowest ${slowest.length} files (import and tests):`);
    for (const timing of slowest) {
      const seconds = (timing.durationMs / 1000).toFixed(1).padStart(6);
      lines.push(`  ${seconds} s  ${timing.file} (${timing.tests} ${timing.tests === 1 ? 'test' : 'tests'})`);
    }
  }
  lines.push(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return lines;
}

/**
 * Ends a run with the ten slowest test files, then one plain line, `tests: N passed, N failed,
 * N skipped`, so a person or a script reading CI output can tell at a glance how many tests ran
 * and where the time went.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const files: FileTiming[] = [];
    for (const module of modules) {
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      const diagnostic = module.diagnostic();
      files.push({
        file: module.relativeModuleId,
        durationMs: diagnostic.collectDuration + diagnostic.duration,
        tests,
      });
    }
    process.stdout.write(`\n${summaryLines(files, { passed, failed, skipped }).join('\n')}\n`);
  }
}
