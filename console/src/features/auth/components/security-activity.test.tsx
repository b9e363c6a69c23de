// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatEventTime } from '../../../lib/security-activity';
import { fakeSession, renderWithProviders, TEST_USER } from '../../../testing/render';
import { calls, fakeSecurityApi, json, securityEvent } from '../testing/fake-security-api';
import { SecurityActivity } from './security-activity';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const REUSED = securityEvent(12, {
  kind: 'refresh_token_reused',
  description: 'A sign-in token was used twice, so we signed you out everywhere',
  address: '192.0.2.50',
  device: 'Firefox on Windows',
});
const ENDED = securityEvent(11, { kind: 'session_ended', description: 'Session ended', address: null });
const OLDER = securityEvent(3, { device: 'Safari on iOS' });

function renderActivity() {
  return renderWithProviders(<SecurityActivity />, { session: fakeSession({ user: TEST_USER }) });
}

describe('SecurityActivity', () => {
  it('shows each event with its sentence, device, address and time, the alarming ones in red', async () => {
    fakeSecurityApi({
      'GET /api/auth/security-activity': json({ events: [REUSED, ENDED], next_cursor: null }),
    });
    renderActivity();

    const list = await screen.findByRole('list', { name: 'Recent security activity' });
    const [first, second] = within(list).getAllByRole('listitem');
    const reused = within(first!);
    const headline = reused.getByText('A sign-in token was used twice, so we signed you out everywhere');
    expect(headline.className).toBe('text-down');
    expect(reused.getByText(/Firefox on Windows · 192\.0\.2\.50/)).toBeTruthy();
    expect(reused.getByText(formatEventTime(REUSED.occurred_at)).getAttribute('datetime')).toBe(
      REUSED.occurred_at,
    );
    const ended = within(second!);
    expect(ended.getByText('Session ended').className).toBe('');
    expect(ended.getByText(/Unknown address/)).toBeTruthy();
    // The last page: nothing more to ask for.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('pages with "Load more": the next page by the cursor, added below, until the last page', async () => {
    const fetchMock = fakeSecurityApi({
      'GET /api/auth/security-activity': (_body, url) => {
        const cursor = new URL(url, 'http://localhost').searchParams.get('cursor');
        return cursor === '11'
          ? json({ events: [OLDER], next_cursor: null })
          : json({ events: [REUSED, ENDED], next_cursor: '11' });
      },
    });
    const user = userEvent.setup();
    renderActivity();
    await screen.findByText('Session ended');
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3));
    expect(within(screen.getAllByRole('listitem')[2]!).getByText(/Safari on iOS/)).toBeTruthy();
    expect(calls(fetchMock)).toEqual([
      'GET /api/auth/security-activity?limit=10',
      'GET /api/auth/security-activity?limit=10&cursor=11',
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when there is nothing yet, and when the activity cannot be loaded', async () => {
    fakeSecurityApi();
    renderActivity();
    expect(await screen.findByText('No security activity yet')).toBeTruthy();
    cleanup();

    fakeSecurityApi({
      'GET /api/auth/security-activity': json({ detail: 'Unavailable', code: 'UNAVAILABLE' }, 503),
    });
    renderActivity();
    expect(await screen.findByText('Security activity could not be loaded')).toBeTruthy();
  });
});
