import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** The flags every run uses: no sandbox (CI runs as root), no GPU, and no calls home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 375, height: 812 };

/** Waits in a journey are generous: the whole suite shares two cores with the other tests. */
export const UI_TIMEOUT_MS = 15_000;

/** Debian's Chromium; a missing browser is an install step to take, never a reason to skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The browser tests drive Debian's Chromium at ${CHROMIUM_PATH}, which is not installed. ` +
        'Install it with `apt-get install -y chromium` (with sudo when not root), then run the tests again.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Reports each Content-Security-Policy violation to the test, even one the page would swallow. */
const CSP_LISTENER = `document.addEventListener('securitypolicyviolation', (event) => {
  window.__reportCspViolation(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') +
    ' at ' + event.sourceFile + ':' + event.lineNumber);
});`;

const CSP_CONSOLE_MESSAGE = /Content Security Policy/i;

/**
 * One visitor: a fresh browser context (its own storage, so its own session) with one page. It
 * records uncaught page errors, console errors and CSP violations; `finish` fails the journey on
 * an uncaught error or a violation and lists the console errors alongside to help find the cause.
 */
export class Journey {
  readonly pageErrors: string[] = [];
  readonly consoleErrors: string[] = [];
  readonly cspViolations: string[] = [];
  /** Every URL the page showed, client-side navigations included. */
  readonly visited: string[] = [];
  /** Alerts and confirmations the page opened, as `type: message`. */
  readonly dialogs: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  static async open(
    browser: Browser,
    baseUrl: string,
    viewport: { width: number; height: number } = DESKTOP,
  ): Promise<Journey> {
    const context = await browser.newContext({ baseURL: baseUrl, viewport });
    context.setDefaultTimeout(UI_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(UI_TIMEOUT_MS);
    const page = await context.newPage();
    const journey = new Journey(context, page);
    await context.exposeFunction('__reportCspViolation', (text: string) => journey.cspViolations.push(text));
    await context.addInitScript(CSP_LISTENER);
    page.on('pageerror', (error) => journey.pageErrors.push(error.stack ?? error.message));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (CSP_CONSOLE_MESSAGE.test(text)) journey.cspViolations.push(text);
      else journey.consoleErrors.push(text);
    });
    // A visitor answers every confirmation with OK, as someone going through with the action would.
    page.on('dialog', (dialog) => {
      journey.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept().catch(() => undefined);
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) journey.visited.push(new URL(frame.url()).pathname);
    });
    return journey;
  }

  /** Saves the page as `test-results/screenshots/<name>.png`, an artefact of the run. */
  async screenshot(name: string): Promise<void> {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await this.page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  /** Whether the document is wider than the window, i.e. the page scrolls sideways. */
  async scrollsSideways(): Promise<boolean> {
    return this.page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
  }

  /** Uncaught errors and CSP violations, one a line; empty when there were none. */
  problems(): string[] {
    return [
      ...this.pageErrors.map((error) => `uncaught page error: ${error}`),
      ...this.cspViolations.map((violation) => `CSP violation: ${violation}`),
    ];
  }

  /** Everything the page complained about, for a failure message. */
  report(): string {
    const lines = this.problems();
    if (this.consoleErrors.length > 0) lines.push(`console errors:\n  ${this.consoleErrors.join('\n  ')}`);
    return lines.join('\n');
  }

  /** Throws when the page had an uncaught error or a CSP violation. */
  assertClean(): void {
    if (this.problems().length > 0) throw new Error(this.report());
  }

  /** Checks the journey ran clean, then closes its context. */
  async finish(): Promise<void> {
    try {
      this.assertClean();
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }
}
