import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The boundary rules in eslint.config.js, proved on deliberate violations. Each file under
 * scripts/lint-fixtures/<rule>/ is linted with the repository's config as if it sat at the path
 * its `// lint-as:` line names (so path-based rules apply to it); a `*.bad.*` fixture names the
 * rule it breaks on an `// expect:` line and must be reported by it, a `*.ok.*` fixture is its
 * correct counterpart and must lint clean. Removing or weakening a rule fails this test.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.join(ROOT, 'scripts/lint-fixtures');

interface Fixture {
  name: string;
  text: string;
  lintAs: string;
  expect: string | null;
}

function readFixtures(): Fixture[] {
  return readdirSync(FIXTURES, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const text = readFileSync(file, 'utf8');
      const lintAs = /^\/\/ lint-as: (\S+)$/m.exec(text)?.[1];
      if (lintAs === undefined) throw new Error(`${file} names no lint-as path`);
      const expected = /^\/\/ expect: (\S+)$/m.exec(text)?.[1] ?? null;
      const bad = entry.name.includes('.bad.');
      if (bad !== (expected !== null)) throw new Error(`${file}: a .bad fixture, and only one, names a rule`);
      return { name: path.relative(FIXTURES, file), text, lintAs, expect: expected };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const fixtures = readFixtures();
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function lint(fixture: Fixture) {
  const [result] = await eslint.lintText(fixture.text, {
    filePath: path.join(ROOT, fixture.lintAs),
    warnIgnored: true,
  });
  return result!.messages;
}

describe('boundary lint rules', () => {
  it('has a violation and a clean counterpart for every rule folder', () => {
    const folders = new Set(fixtures.map((fixture) => path.dirname(fixture.name)));
    for (const folder of folders) {
      const inFolder = fixtures.filter((fixture) => path.dirname(fixture.name) === folder);
      expect(
        inFolder.some((fixture) => fixture.expect !== null),
        folder,
      ).toBe(true);
      expect(
        inFolder.some((fixture) => fixture.expect === null),
        folder,
      ).toBe(true);
    }
    expect(folders.size).toBeGreaterThanOrEqual(7);
  });

  for (const fixture of fixtures.filter((candidate) => candidate.expect !== null)) {
    it(`${fixture.name} is refused by ${fixture.expect}`, async () => {
      const rules = (await lint(fixture)).map((message) => message.ruleId);
      expect(rules).toContain(fixture.expect);
    });
  }

  for (const fixture of fixtures.filter((candidate) => candidate.expect === null)) {
    it(`${fixture.name} passes`, async () => {
      const messages = await lint(fixture);
      expect(messages.map(({ ruleId, line, message }) => `${ruleId}:${line} ${message}`)).toEqual([]);
    });
  }
});
