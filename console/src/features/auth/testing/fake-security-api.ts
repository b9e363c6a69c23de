import type { Schemas } from '../../../lib/api-schema';
import { fakeApi, json, type FakeRoute } from '../../../testing/fake-api';

export { bodiesOf, calls, json, type FetchMock } from '../../../testing/fake-api';

type ActiveSession = Schemas['ActiveSession'];
type SecurityEvent = Schemas['SecurityEvent'];

export const THIS_SESSION: ActiveSession = {
  id: '00000000-0000-4000-8000-00000000c001',
  signed_in_at: '2026-11-20T09:00:00.000Z',
  last_seen_at: '2026-11-21T10:00:00.000Z',
  address: '203.0.113.7',
  device: 'Chrome on Linux',
  current: true,
};

export const PHONE_SESSION: ActiveSession = {
  id: '00000000-0000-4000-8000-00000000c002',
  signed_in_at: '2026-11-19T08:00:00.000Z',
  last_seen_at: '2026-11-21T09:30:00.000Z',
  address: '198.51.100.20',
  device: 'Safari on iOS',
  current: false,
};

/** An event as the server lists it; `id` also orders it (newer events have larger ids). */
export function securityEvent(id: number, overrides: Partial<SecurityEvent> = {}): SecurityEvent {
  return {
    id: String(id),
    kind: 'sign_in',
    description: 'Signed in',
    occurred_at: new Date(Date.UTC(2026, 10, 21, 10, 0, id)).toISOString(),
    address: '203.0.113.7',
    device: 'Chrome on Linux',
    session_id: THIS_SESSION.id,
    ...overrides,
  };
}

/**
 * `fetch` stubbed for the Security card: the two lists it loads on its own (one session and no
 * activity unless given) and whatever routes a test adds or replaces.
 */
export function fakeSecurityApi(routes: Record<string, FakeRoute> = {}) {
  return fakeApi({
    'GET /api/auth/sessions': json({ sessions: [THIS_SESSION] }),
    'GET /api/auth/security-activity': json({ events: [], next_cursor: null }),
    ...routes,
  });
}
