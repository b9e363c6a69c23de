import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run test:chaos` and `npm run test:security`: one suite's folder through Vitest. Inside
 * `npm test` the suites run in their quick form; `--long` runs them at full size (the test files
 * read `UPDOWN_TEST_LONG`), and `--seed <n>` replays one chaos run (`CHAOS_SEED`). Any other
 * argument goes to Vitest unchanged (a file filter under the suite's folder, `-t <name>`).
 */
const SUITES = ['chaos', 'security'] as const;
type Suite = (typeof SUITES)[number];

function parse(argv: readonly string[]): { suite: Suite; env: Record<string, string>; rest: string[] } {
  const [suite, ...args] = argv;
  if (!SUITES.includes(suite as Suite)) {
    throw new Error(`usage: test-suite.ts <${SUITES.join('|')}> [--long] [--seed <n>] [vitest args]`);
  }
  const env: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--long') env.UPDOWN_TEST_LONG = '1';
    else if (arg === '--seed' || arg.startsWith('--seed=')) {
      const value = arg === '--seed' ? args[++i] : arg.slice('--seed='.length);
      if (value === undefined || !/^\d+$/.test(value)) throw new Error('--seed needs a whole number');
      env.CHAOS_SEED = value;
    } else rest.push(arg);
  }
  return { suite: suite as Suite, env, rest };
}

const { suite, env, rest } = parse(process.argv.slice(2));
const root = path.resolve(import.meta.dirname, '..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
// A file filter inside the suite narrows the run to it; without one the whole folder runs.
const filtered = rest.some((arg) => arg.startsWith(`${suite}/`));
const child = spawn(process.execPath, [vitest, 'run', ...(filtered ? [] : [`${suite}/`]), ...rest], {
  cwd: root,
  env: { ...process.env, ...env },
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
