import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLATFORM_SCRIPT } from '@updown/platform/testing';
import { benchEngineDir } from './engine-dir';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-engine-dir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('benchEngineDir', () => {
  it('is this checkout when unset or empty', () => {
    expect(benchEngineDir({})).toBeUndefined();
    expect(benchEngineDir({ BENCH_ENGINE_DIR: '' })).toBeUndefined();
  });

  it('refuses a folder that is not an installed checkout, naming it', () => {
    expect(() => benchEngineDir({ BENCH_ENGINE_DIR: scratch })).toThrow(
      /BENCH_ENGINE_DIR=.*not an installed Updown checkout/,
    );
  });

  it('resolves an installed checkout to its absolute path', () => {
    const checkout = path.join(scratch, 'other');
    mkdirSync(path.join(checkout, path.dirname(PLATFORM_SCRIPT)), { recursive: true });
    mkdirSync(path.join(checkout, 'node_modules'));
    writeFileSync(path.join(checkout, PLATFORM_SCRIPT), '');
    expect(benchEngineDir({ BENCH_ENGINE_DIR: path.relative(process.cwd(), checkout) })).toBe(checkout);
  });
});
