import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleBuildReason } from './console-build';

function consoleTree(): { root: string; dist: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'updown-console-'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'vite.config.ts'), '');
  writeFileSync(path.join(root, 'src', 'main.tsx'), '');
  return { root, dist: path.join(root, 'dist') };
}

function touch(file: string, secondsAgo: number): void {
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, at, at);
}

describe('consoleBuildReason', () => {
  it('asks for a build when there is none', () => {
    const { root, dist } = consoleTree();
    expect(consoleBuildReason(root, dist)).toBe('no build yet');
  });

  it('asks again when a source is newer than the build, and not when the build is newer', () => {
    const { root, dist } = consoleTree();
    mkdirSync(dist);
    writeFileSync(path.join(dist, 'index.html'), '');
    touch(path.join(root, 'vite.config.ts'), 100);
    touch(path.join(root, 'src', 'main.tsx'), 100);
    touch(path.join(dist, 'index.html'), 50);
    expect(consoleBuildReason(root, dist)).toBeUndefined();
    touch(path.join(root, 'src', 'main.tsx'), 10);
    expect(consoleBuildReason(root, dist)).toBe('sources changed since the last build');
  });

  it('does nothing where there is no console app', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'updown-console-'));
    expect(consoleBuildReason(root, path.join(root, 'dist'))).toBeUndefined();
  });
});
