import { describe, expect, it } from 'vitest';
import { newUser, signIn, signUp } from '@updown/api-client';
import { TEST_ADMIN } from '@updown/platform/testing';
import type { Page } from 'playwright-core';
import {
  accessToken,
  JOURNEY_TIMEOUT_MS,
  onPath,
  signInThroughUi,
  toastShown,
  useE2eSuite,
} from './harness/suite';

/** The Security card's list of sessions on `page`'s dashboard. */
function sessionList(page: Page) {
  return page.getByRole('list', { name: 'Active sessions' });
}

/** The descriptions of the events a list shows, top to bottom. */
async function descriptionsIn(list: ReturnType<Page['getByRole']>): Promise<string[]> {
  return list.getByRole('listitem').locator('strong').allTextContents();
}

describe('account security in the browser', () => {
  const suite = useE2eSuite();

  it(
    'lists both devices with "This device" on one, ends the other with "End session", and records it',
    async () => {
      const { api } = suite.platform;
      const user = newUser('Owner');
      await api.post('/api/auth/register', user);
      const laptop = await suite.journey();
      const phone = await suite.journey();
      await signInThroughUi(phone.page, user);
      await signInThroughUi(laptop.page, user);

      await laptop.page.goto('/dashboard');
      const sessions = sessionList(laptop.page);
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
      const here = sessions.getByRole('listitem').filter({ hasText: 'This device' });
      const other = sessions.getByRole('listitem').filter({ hasNotText: 'This device' });
      await expect(here.count()).resolves.toBe(1);
      await other.getByText(/Last seen/).waitFor();
      // The device comes from the browser's user agent and the address from the connection.
      await expect(other.textContent()).resolves.toMatch(/Chrome on Linux/);
      await expect(other.textContent()).resolves.toMatch(/127\.0\.0\.1/);
      await laptop.screenshot('dashboard-active-sessions');

      await other.getByRole('button', { name: 'End session' }).click();
      await toastShown(laptop.page, 'Session ended');
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
      await sessions.getByText('This device').waitFor();

      // The phone's session is over: its next load finds its token refused and lands on /auth.
      await phone.page.goto('/dashboard');
      await onPath(phone.page, '/auth');

      // The laptop goes on, and its activity tells the story newest first.
      const activity = laptop.page.getByRole('list', { name: 'Recent security activity' });
      await activity.getByText('Session ended', { exact: true }).waitFor();
      const shown = await descriptionsIn(activity);
      expect(shown.slice(0, 3)).toEqual(['Session ended', 'Signed in', 'Signed in']);
      const token = await accessToken(laptop.page);
      const listed = await api.get('/api/auth/sessions', { token });
      expect(listed.sessions.map((session) => session.current)).toEqual([true]);
      await laptop.finish();
      await phone.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "lets an admin open one user's security activity from the Users tab",
    async () => {
      const { api } = suite.platform;
      const user = newUser('Watched');
      const bystander = newUser('Bystander');
      const watched = await signUp(api, user);
      await signUp(api, bystander);
      // Two sign-ins and a "Log out everywhere" on the watched account only.
      const second = await signIn(api, user);
      await api.post('/api/auth/logout-all', undefined, { token: second.accessToken });
      const { accessToken: adminToken } = await signIn(api, TEST_ADMIN);
      const expected = await api.get('/api/admin/users/{id}/security-activity', {
        token: adminToken,
        params: { id: watched.id },
      });
      expect(expected.events.map((event) => event.description)).toEqual([
        'Signed out everywhere',
        'Signed in',
        'Signed in',
      ]);

      const journey = await suite.journey();
      const { page } = journey;
      await signInThroughUi(page, TEST_ADMIN);
      await page.goto('/admin?tab=users');
      await page.getByRole('heading', { name: 'User Management & Statistics' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: user.email });
      await row.getByRole('button', { name: 'Security activity' }).click();

      const dialog = page.getByRole('dialog', { name: `Security activity of ${user.name}` });
      const list = dialog.getByRole('list', { name: `Security activity of ${user.name}` });
      await list.getByText('Signed out everywhere', { exact: true }).waitFor();
      expect(await descriptionsIn(list)).toEqual(expected.events.map((event) => event.description));
      await expect(list.getByRole('listitem').first().textContent()).resolves.toMatch(/127\.0\.0\.1/);
      await journey.screenshot('admin-user-security-activity');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      await journey.finish();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
