import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { ApiClient, newUser, signUp } from '@updown/api-client';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/browser';

/**
 * `npm run lighthouse`: Lighthouse's four category scores and the JavaScript each page transfers,
 * for the console served by a started platform, on Lighthouse's default mobile preset (a mid-range
 * phone, simulated slow 4G and a 4× slower CPU). The signed-in pages are measured as a user who
 * registered through the API: the access token and user id are put into localStorage, where the
 * console keeps them (a run is far shorter than the token's 15 minutes, so no refresh, which would
 * need the browser's session cookie, is ever wanted), and the browser cache is emptied before every run so each load is a cold one.
 *
 *   npm run lighthouse [-- --url http://127.0.0.1:8080] [--pages /,/trade] [--runs 3] [--report-only] [--out DIR]
 *
 * `--out` keeps each run's full report (JSON, for Lighthouse's viewer) in a directory.
 *
 * Exits 1 when a page's median score in any category is below 0.95, unless `--report-only`.
 */

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const PAGES = [
  { path: '/', signedIn: false },
  { path: '/auth', signedIn: false },
  { path: '/trade', signedIn: true },
  { path: '/wallet', signedIn: true },
] as const;
const SCORE_MIN = 0.95;
const RUNS_MAX = 9;
/** Chromium writes its debugging port to a file in its profile; it does so within a second or two. */
const DEVTOOLS_PORT_WAIT_MS = 15_000;

interface Options {
  url: string;
  runs: number;
  reportOnly: boolean;
  outDir: string | undefined;
  pages: readonly string[];
}

interface PageResult {
  path: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  scriptBytes: number;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    url: 'http://127.0.0.1:8080',
    runs: 1,
    reportOnly: false,
    outDir: undefined,
    pages: PAGES.map((page) => page.path),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--url') options.url = argv[++i] ?? '';
    else if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg === '--report-only') options.reportOnly = true;
    else if (arg === '--out') options.outDir = argv[++i];
    else if (arg === '--pages') options.pages = (argv[++i] ?? '').split(',');
    else
      throw new Error(
        `unknown argument ${arg}; usage: lighthouse.ts [--url U] [--pages /,/auth] [--runs N] [--report-only] [--out DIR]`,
      );
  }
  if (!/^https?:\/\/[^/]+$/.test(options.url.replace(/\/$/, ''))) throw new Error('--url needs an origin');
  options.url = options.url.replace(/\/$/, '');
  const unknown = options.pages.filter((page) => !PAGES.some((known) => known.path === page));
  if (unknown.length > 0) throw new Error(`--pages takes ${PAGES.map((page) => page.path).join(',')}`);
  if (!Number.isInteger(options.runs) || options.runs < 1 || options.runs > RUNS_MAX) {
    throw new Error(`--runs needs a whole number from 1 to ${RUNS_MAX}`);
  }
  return options;
}

/** A fresh trader, registered and signed in through the API: the localStorage entries the console reads. */
async function signedInStorage(origin: string): Promise<Record<string, string>> {
  const trader = await signUp(new ApiClient(origin), newUser('Lighthouse'));
  return { access_token: trader.accessToken, user_id: trader.id };
}

async function launchChromium(profileDir: string): Promise<{ child: ChildProcess; port: number }> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}`);
  const child = spawn(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profileDir}`, 'about:blank'],
    { stdio: 'ignore', detached: true },
  );
  const portFile = path.join(profileDir, 'DevToolsActivePort');
  const deadline = Date.now() + DEVTOOLS_PORT_WAIT_MS;
  while (Date.now() < deadline) {
    if (existsSync(portFile)) {
      const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
      if (port > 0) return { child, port };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stopChromium(child);
  throw new Error(`Chromium did not open a debugging port within ${DEVTOOLS_PORT_WAIT_MS} ms`);
}

/** Chromium gets this long to exit on SIGTERM before it is killed. */
const CHROMIUM_EXIT_WAIT_MS = 5_000;

async function stopChromium(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Detached, so the browser and its helper processes form one group of their own.
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), CHROMIUM_EXIT_WAIT_MS);
  await exited;
  clearTimeout(timer);
}

/** Puts the session into the origin's localStorage and empties the HTTP cache, over a short-lived connection. */
async function prepareSignedIn(port: number, origin: string, storage: Record<string, string>): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    // A JSON endpoint of the same origin: localStorage is per origin, and no console asset gets cached.
    await page.goto(`${origin}/healthz`);
    // A string, run in the page: the scripts' TypeScript project has no DOM types.
    await page.evaluate(
      `for (const [key, value] of Object.entries(${JSON.stringify(storage)})) localStorage.setItem(key, value)`,
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.close();
  }
}

/** Lighthouse's own failure to record a run (a lost trace on a busy machine): worth one more try. */
class RunFailed extends Error {}
const RUN_ATTEMPTS_MAX = 3;

async function measure(port: number, url: string, signedIn: boolean, outFile: string | undefined) {
  const result = await lighthouse(url, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: [...CATEGORIES],
    // Lighthouse would otherwise clear localStorage, and with it the session, before loading the page.
    disableStorageReset: signedIn,
  });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new RunFailed(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  if (outFile) writeFileSync(outFile, JSON.stringify(lhr));
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, lhr.categories[id]?.score ?? 0]),
  ) as PageResult['scores'];
  const items = (
    lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] }
  )?.items;
  const scriptBytes = items?.find((item) => item.resourceType === 'script')?.transferSize ?? 0;
  return { scores, scriptBytes, finalUrl: lhr.finalDisplayedUrl };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function measurePage(
  port: number,
  options: Options,
  page: (typeof PAGES)[number],
  storage: Record<string, string>,
): Promise<PageResult> {
  const runs: Awaited<ReturnType<typeof measure>>[] = [];
  for (let run = 1; run <= options.runs; run++) {
    const outFile = options.outDir
      ? path.join(options.outDir, `${page.path.slice(1) || 'landing'}-${run}.json`)
      : undefined;
    let result: Awaited<ReturnType<typeof measure>> | undefined;
    for (let attempt = 1; result === undefined; attempt++) {
      if (page.signedIn) await prepareSignedIn(port, options.url, storage);
      try {
        result = await measure(port, `${options.url}${page.path}`, page.signedIn, outFile);
      } catch (error) {
        if (!(error instanceof RunFailed) || attempt === RUN_ATTEMPTS_MAX) throw error;
        console.error(`${error.message}; trying again`);
      }
    }
    // A redirect (a lost session, a signed-in visitor on the landing page) would measure another page.
    if (new URL(result.finalUrl).pathname !== page.path) {
      throw new Error(`${page.path} ended on ${result.finalUrl}: the page measured is not the one asked for`);
    }
    runs.push(result);
  }
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, median(runs.map((run) => run.scores[id]))]),
  ) as PageResult['scores'];
  return { path: page.path, scores, scriptBytes: median(runs.map((run) => run.scriptBytes)) };
}

function printTable(results: readonly PageResult[], runs: number): void {
  const header = ['page', ...CATEGORIES, 'JS transferred'];
  const rows = results.map((result) => [
    result.path,
    ...CATEGORIES.map((id) => result.scores[id].toFixed(2)),
    `${(result.scriptBytes / 1024).toFixed(1)} KiB`,
  ]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(`Lighthouse, mobile preset, ${runs === 1 ? 'one run' : `median of ${runs} runs`} per page`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (options.outDir) mkdirSync(options.outDir, { recursive: true });
  const storage = await signedInStorage(options.url);
  const profileDir = mkdtempSync(path.join(os.tmpdir(), 'updown-lighthouse-'));
  const { child, port } = await launchChromium(profileDir);
  const results: PageResult[] = [];
  try {
    // The public pages first: once the session is in localStorage they would redirect to /trade.
    for (const page of PAGES.filter((known) => options.pages.includes(known.path)))
      results.push(await measurePage(port, options, page, storage));
  } finally {
    await stopChromium(child);
    rmSync(profileDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  printTable(results, options.runs);
  const failing = results.flatMap((result) =>
    CATEGORIES.filter((id) => result.scores[id] < SCORE_MIN).map((id) => `${result.path} ${id}`),
  );
  if (failing.length === 0) return 0;
  console.log(`below ${SCORE_MIN}: ${failing.join(', ')}`);
  return options.reportOnly ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
