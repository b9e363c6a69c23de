import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchmarks } from './benchmarks/index';
import { failureText } from '@updown/runtime';
import { benchEngineDir } from './lib/engine-dir';
import { openBenchEnvironment } from './lib/environment';
import { markdownTable } from './lib/report';
import type { BenchReport, BenchResult } from './lib/types';

/**
 * `npm run bench [-- <name>...] [-- --quick]`: runs the named benchmarks (default: all but the
 * soak), each against its same-run reference, writes `bench/results/latest.json` and a Markdown
 * table beside it, and prints the table. Exit 0 when every benchmark ran (pass or not: goals are
 * reported, not enforced), 1 when one could not run.
 */
const RESULTS_DIR = path.join(import.meta.dirname, 'results');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const names = args.filter((arg) => !arg.startsWith('--'));
  const unknown = names.filter((name) => !benchmarks.some((b) => b.name === name));
  if (unknown.length > 0) {
    console.error(
      `unknown benchmark: ${unknown.join(', ')}; known: ${benchmarks.map((b) => b.name).join(', ')}`,
    );
    return 2;
  }
  const selected =
    names.length > 0
      ? benchmarks.filter((b) => names.includes(b.name))
      : benchmarks.filter((b) => b.inDefaultRun);
  const log = (message: string) => console.log(`[bench] ${message}`);
  const startedAt = new Date().toISOString();
  const env = await openBenchEnvironment(log);
  const results: BenchResult[] = [];
  let failed = 0;
  try {
    for (const benchmark of selected) {
      log(`${benchmark.name}: starting`);
      const started = Date.now();
      try {
        const rows = await benchmark.run({ env, quick, log: (m) => log(`${benchmark.name}: ${m}`) });
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        for (const result of Array.isArray(rows) ? rows : [rows]) {
          results.push(result);
          log(`${result.name}: ${result.value} ${result.unit} (${seconds} s)`);
        }
      } catch (error) {
        failed++;
        console.error(`[bench] ${benchmark.name} failed:`, error);
      }
    }
  } finally {
    await env.close();
  }
  const report: BenchReport = {
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()}`,
      node: process.versions.node,
      postgres: env.server.server_version ?? 'unknown',
      fsync: env.server.fsync ?? 'unknown',
      synchronous_commit: env.server.synchronous_commit ?? 'unknown',
      jit: env.server.jit ?? 'unknown',
      // Read through this checkout's createDb: another checkout's engine may connect otherwise.
      engine_jit: benchEngineDir() ? 'not read (BENCH_ENGINE_DIR)' : (env.server.engine_jit ?? 'unknown'),
      engine_dir: benchEngineDir() ?? 'this checkout',
      quick: quick ? 'yes' : 'no',
    },
    startedAt,
    benchmarks: results,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const table = markdownTable(report);
  const stamp = startedAt.replace(/[:.]/g, '-');
  await writeFile(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(RESULTS_DIR, 'latest.md'), table);
  await writeFile(path.join(RESULTS_DIR, `${stamp}.md`), table);
  console.log(`\n${table}`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(failureText(error));
    process.exit(1);
  },
);
