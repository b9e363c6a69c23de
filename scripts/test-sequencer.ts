import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suites that start platforms, brokers or browsers of their own (whole minutes each), longest
 * first. They start the run, so the many short files fill the other workers around them instead of
 * a long suite starting last and running alone at the end.
 */
export const LONG_SUITES_FIRST: readonly RegExp[] = [
  /^chaos\/crash-consistency\.int\.test\.ts$/,
  /^services\/platform\/src\/distributed\.int\.test\.ts$/,
  /^e2e\/receipts\.e2e\.test\.ts$/,
  /^security\/authorization-matrix\.int\.test\.ts$/,
  /^services\/platform\/src\/platform\.int\.test\.ts$/,
  /^services\/platform\/src\/ha\/failover\.int\.test\.ts$/,
  /^e2e\//,
  /^chaos\//,
  /^security\//,
  /^services\/platform\/src\/standalone\.int\.test\.ts$/,
  /^load-tests\/node\/smoke\.int\.test\.ts$/,
];

/** Where a file goes among the long suites (its pattern's index), or undefined for any other file. */
export function longSuiteRank(relativePath: string): number | undefined {
  const normalized = relativePath.split(path.sep).join('/');
  const rank = LONG_SUITES_FIRST.findIndex((pattern) => pattern.test(normalized));
  return rank === -1 ? undefined : rank;
}

/** The long suites in their listed order, then the rest as Vitest orders them (slowest known first). */
export function longSuitesFirst<T>(ordered: readonly T[], relativePathOf: (item: T) => string): T[] {
  const ranked = ordered.map((item, position) => ({
    item,
    position,
    rank: longSuiteRank(relativePathOf(item)),
  }));
  const long = ranked
    .filter((r) => r.rank !== undefined)
    .sort((a, b) => a.rank! - b.rank! || a.position - b.position);
  const rest = ranked.filter((r) => r.rank === undefined);
  return [...long, ...rest].map((r) => r.item);
}

/**
 * Vitest orders files by the durations of the last run on this machine, and by file size where it
 * has none (a clean clone, CI), which put the longest suites anywhere. This keeps Vitest's order
 * and moves the long suites to the front.
 */
export default class LongSuitesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    return longSuitesFirst(ordered, (spec) => path.relative(root, spec.moduleId));
  }
}
