import { describe, expect, it } from 'vitest';
import { SLOWEST_FILES_SHOWN, summaryLines, type FileTiming } from './summary-reporter';

const counts = { passed: 7, failed: 1, skipped: 2 };

describe('summaryLines', () => {
  it('names the slowest files first, at most ten, and ends on the counts', () => {
    const files: FileTiming[] = Array.from({ length: 12 }, (_, i) => ({
      file: `services/x/f${i}.int.test.ts`,
      durationMs: (i + 1) * 1000,
      tests: i === 0 ? 1 : 3,
    }));
    const lines = summaryLines(files, counts);
    expect(lines[0]).toBe(`slowest ${SLOWEST_FILES_SHOWN} files (import and tests):`);
    expect(lines[1]).toBe('    12.0 s  services/x/f11.int.test.ts (3 tests)');
    expect(lines[10]).toBe('     3.0 s  services/x/f2.int.test.ts (3 tests)');
    expect(lines).toHaveLength(SLOWEST_FILES_SHOWN + 2);
    expect(lines.at(-1)).toBe('tests: 7 passed, 1 failed, 2 skipped');
  });

  it('says "test" for one, and prints only the counts when no file ran', () => {
    const one = summaryLines([{ file: 'a.test.ts', durationMs: 250, tests: 1 }], counts);
    expect(one[1]).toBe('     0.3 s  a.test.ts (1 test)');
    expect(summaryLines([], counts)).toEqual(['tests: 7 passed, 1 failed, 2 skipped']);
  });
});
