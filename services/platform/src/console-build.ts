import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@updown/runtime';

/**
 * `npm start` serves the console the gateway finds in `console/dist`. So that `npm install && npm
 * start` always serves the current console, the build runs first when it is missing or older than
 * any of the console's sources. Only the default location is built: a `CONSOLE_DIR` pointing
 * elsewhere is someone else's build.
 */

const SOURCE_ENTRIES = ['src', 'public', 'index.html', 'package.json', 'vite.config.ts', 'tsconfig.json'];
/** Bounds the walk over the sources; the console has a few hundred files. */
const SOURCE_FILES_MAX = 20_000;

export function newestMtimeMs(paths: readonly string[]): number {
  let newest = 0;
  let seen = 0;
  const stack = paths.filter((p) => existsSync(p));
  while (stack.length > 0 && seen < SOURCE_FILES_MAX) {
    const current = stack.pop()!;
    const stat = statSync(current);
    seen++;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(current)) stack.push(path.join(current, entry));
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  }
  return newest;
}

/** Why the console needs building, or undefined when the build is current or there is no console app. */
export function consoleBuildReason(consoleRoot: string, distDir: string): string | undefined {
  if (!existsSync(path.join(consoleRoot, 'vite.config.ts'))) return undefined;
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) return 'no build yet';
  const sources = newestMtimeMs(SOURCE_ENTRIES.map((entry) => path.join(consoleRoot, entry)));
  return sources > statSync(index).mtimeMs ? 'sources changed since the last build' : undefined;
}

export function buildConsoleIfStale(options: { repoRoot: string; consoleDir: string; logger: Logger }): void {
  const consoleRoot = path.join(options.repoRoot, 'console');
  if (path.resolve(options.consoleDir) !== path.join(consoleRoot, 'dist')) return;
  const reason = consoleBuildReason(consoleRoot, options.consoleDir);
  if (!reason) return;
  options.logger.info({ reason }, 'building the console');
  const result = spawnSync('npm', ['run', 'build', '--workspace', '@updown/console'], {
    cwd: options.repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    throw new Error(
      `building the console failed (exit ${result.status ?? result.signal}); run \`npm run build\` to see why`,
    );
  }
}
