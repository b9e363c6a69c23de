import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The console the browser tests load, built by Vite into the system's temporary directory (never
 * into the repo). The build is keyed by a hash of everything that goes into the bundle, so the
 * test files of one run, which start in parallel, share a single build, and a later run with
 * unchanged sources reuses it. A changed source means a new key and a fresh build.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const CONSOLE_ROOT = path.join(REPO_ROOT, 'console');
/**
 * What the bundle is made of: the console app, the workspace packages it imports (the schemas and
 * the receipt verifier) and the locked dependencies.
 */
const INPUTS = [
  'console/src',
  'console/public',
  'console/index.html',
  'console/package.json',
  'console/vite.config.ts',
  'console/tsconfig.json',
  'schemas/src',
  'schemas/package.json',
  'verify/src',
  'verify/package.json',
  'package-lock.json',
];
/** Bounds the walk over the inputs; the console and schemas have a few hundred files. */
const INPUT_FILES_MAX = 20_000;
/** A build takes seconds; a lock older than this belongs to a run that died mid-build. */
const LOCK_STALE_MS = 120_000;
const LOCK_POLL_MS = 200;
/** Builds of other source states are removed once this old. */
const OLD_BUILD_MS = 24 * 3600 * 1000;
const BUILD_PREFIX = 'updown-e2e-console-';
const BUILD_MODE = 'production';

function isBundleInput(file: string): boolean {
  return !/\.test\.tsx?$/.test(file);
}

/** A hash of the inputs' relative paths and contents: the same sources give the same key. */
export function consoleSourceKey(): string {
  const hash = createHash('sha256');
  // The kind of build is part of the key: builds made before it was production are not reused.
  hash.update(`${BUILD_MODE}\0`);
  const stack = INPUTS.map((entry) => path.join(REPO_ROOT, entry)).filter((p) => existsSync(p));
  const files: string[] = [];
  while (stack.length > 0 && files.length < INPUT_FILES_MAX) {
    const current = stack.pop()!;
    if (statSync(current).isDirectory()) {
      for (const entry of readdirSync(current)) stack.push(path.join(current, entry));
    } else if (isBundleInput(current)) {
      files.push(current);
    }
  }
  for (const file of files.sort()) {
    hash.update(path.relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function tryLock(lockDir: string): boolean {
  try {
    mkdirSync(lockDir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A lock left by a run that was killed mid-build would otherwise block every later run.
    const lock = statSync(lockDir, { throwIfNoEntry: false });
    if (lock && Date.now() - lock.mtimeMs > LOCK_STALE_MS) {
      rmSync(lockDir, { recursive: true, force: true });
    }
    return false;
  }
}

function removeOldBuilds(keep: string): void {
  const tmp = os.tmpdir();
  for (const entry of readdirSync(tmp)) {
    const full = path.join(tmp, entry);
    if (!entry.startsWith(BUILD_PREFIX) || full === keep) continue;
    const stat = statSync(full, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > OLD_BUILD_MS) rmSync(full, { recursive: true, force: true });
  }
}

async function buildInto(outDir: string): Promise<void> {
  // Vite is only loaded when a build is due: most test files find the build already made.
  const { build } = await import('vite');
  // Vitest sets NODE_ENV=test, and Vite keeps a NODE_ENV it finds: React's development build
  // would be bundled. The tests drive (and the bundle budget measures) what users get.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = BUILD_MODE;
  try {
    await build({
      configFile: path.join(CONSOLE_ROOT, 'vite.config.ts'),
      mode: BUILD_MODE,
      build: { outDir, emptyOutDir: true },
      // Build failures throw; warnings (chunk sizes) belong to the console's own build output.
      logLevel: 'error',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** The directory of a console build of the current sources, building it first if no run has. */
export async function consoleBuild(): Promise<string> {
  const dir = path.join(os.tmpdir(), `${BUILD_PREFIX}${consoleSourceKey()}`);
  const lockDir = `${dir}.lock`;
  for (;;) {
    if (existsSync(path.join(dir, 'index.html'))) return dir;
    if (!tryLock(lockDir)) {
      await sleep(LOCK_POLL_MS);
      continue;
    }
    try {
      if (existsSync(path.join(dir, 'index.html'))) return dir;
      // Built aside and renamed into place, so nobody ever serves half a build.
      const staging = `${dir}.staging-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await buildInto(staging);
        rmSync(dir, { recursive: true, force: true });
        renameSync(staging, dir);
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
      removeOldBuilds(dir);
      return dir;
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  }
}
