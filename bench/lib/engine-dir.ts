import { existsSync } from 'node:fs';
import path from 'node:path';
import { PLATFORM_SCRIPT } from '@updown/platform/testing';

/**
 * `BENCH_ENGINE_DIR`: another checkout of Updown (with its own `node_modules`) whose platform and
 * services the placement benchmark starts instead of this checkout's, while the harness, the load,
 * the references and the instruments stay this checkout's. A before/after comparison of two trees
 * then differs only in the engine under test, not in how it was measured. The database is still
 * migrated by this checkout, so the two trees must share their schema (no migration in between).
 * Undefined when unset: this checkout's engine.
 */
export function benchEngineDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.BENCH_ENGINE_DIR;
  if (value === undefined || value === '') return undefined;
  const root = path.resolve(value);
  if (!existsSync(path.join(root, PLATFORM_SCRIPT)) || !existsSync(path.join(root, 'node_modules'))) {
    throw new Error(
      `BENCH_ENGINE_DIR=${value} is not an installed Updown checkout (no ${PLATFORM_SCRIPT} or node_modules)`,
    );
  }
  return root;
}
