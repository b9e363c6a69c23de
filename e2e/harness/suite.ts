import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { NewUser } from '@updown/api-client';
import { DESKTOP, Journey, launchChromium, UI_TIMEOUT_MS } from './browser';
import { startE2ePlatform, type E2ePlatform } from './platform';

/** Start-up builds the console (seconds, once per source state), migrates a database and starts Chromium. */
export const SETUP_TIMEOUT_MS = 120_000;
/** Each journey's own limit, set in the test files: several times the 10-30 s one takes on a busy machine. */
export const JOURNEY_TIMEOUT_MS = 90_000;

export interface E2eSuite {
  readonly platform: E2ePlatform;
  readonly browser: Browser;
  /** A new visitor; closed after the test even when the test fails. */
  journey(viewport?: { width: number; height: number }): Promise<Journey>;
}

/**
 * One platform (with `env` added to its configuration) and one Chromium for the test file, started before its first journey and stopped
 * after its last. Journeys share them but each gets a browser context of its own.
 */
export function useE2eSuite(options: { env?: () => Readonly<Record<string, string>> } = {}): E2eSuite {
  let platform: E2ePlatform | undefined;
  let browser: Browser | undefined;
  const journeys: Journey[] = [];

  beforeAll(async () => {
    // `env` is read here, after the file's earlier hooks (a test's local servers) have run.
    const [started, launched] = await Promise.allSettled([
      startE2ePlatform(options.env?.()),
      launchChromium(),
    ]);
    if (started.status === 'fulfilled') platform = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (launched.status === 'rejected') throw launched.reason;
    if (started.status === 'rejected') throw started.reason;
  }, SETUP_TIMEOUT_MS);

  afterEach(async (context) => {
    const open = journeys.splice(0);
    if (context.task.result?.state === 'fail') {
      // What the page looked like and what it logged when the journey broke, for whoever reads the run.
      for (const [index, journey] of open.entries()) {
        await journey.screenshot(`failed-${slug(context.task.name)}-${index + 1}`).catch(() => undefined);
        const report = journey.report();
        if (report !== '') console.error(`${context.task.name}:\n${report}`);
      }
    }
    await Promise.all(open.map((journey) => journey.close()));
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, SETUP_TIMEOUT_MS);

  return {
    get platform() {
      if (!platform) throw new Error('the platform is not running');
      return platform;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not running');
      return browser;
    },
    async journey(viewport = DESKTOP) {
      const journey = await Journey.open(this.browser, this.platform.baseUrl, viewport);
      journeys.push(journey);
      return journey;
    },
  };
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

/** Resolves when a toast with exactly this title shows. */
export async function toastShown(page: Page, title: string): Promise<void> {
  await page.locator('[data-sonner-toast]').getByText(title, { exact: true }).first().waitFor();
}

/** Resolves once the page's path is `pathname`. */
export async function onPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: UI_TIMEOUT_MS });
}

/** Signs in through the auth page with an account that has no second factor; lands on /trade. */
export async function signInThroughUi(page: Page, user: Pick<NewUser, 'email' | 'password'>): Promise<void> {
  await page.goto('/auth');
  await submitLogin(page, user);
  await onPath(page, '/trade');
}

/** Fills and submits the login form of the auth page. */
export async function submitLogin(page: Page, user: Pick<NewUser, 'email' | 'password'>): Promise<void> {
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The access token the console holds after signing in, for the API calls a journey checks with. */
export async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate<string | null>("localStorage.getItem('access_token')");
  if (!token) throw new Error('the console holds no access token');
  return token;
}

/** A $10, one-minute UP trade from the trade panel, on the selected pair; resolves once it is placed. */
export async function placeUpTradeThroughUi(page: Page): Promise<void> {
  await page.getByLabel('Amount ($)').fill('10');
  await page.getByLabel('Duration').selectOption({ label: '1m' });
  await page.getByRole('button', { name: /^\W*UP$/ }).click();
  await toastShown(page, 'Trade placed: UP');
}
