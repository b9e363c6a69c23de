import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@updown/runtime';
import { createTestDatabase, metricValue, type TestDatabase } from '@updown/runtime/testing';
import {
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { createAdminPlugin } from '../admin/admin.routes';
import { memoryLogger } from '../testing/test-app';
import { jpegBytes, multipartUpload, pdfBytes } from '@updown/accounts/testing';
import { createIdentityPlugin } from './identity.routes';

let database: TestDatabase;
let app: AuthTestApp;
const registry = createMetricsRegistry();

async function account(role: 'user' | 'admin' = 'user') {
  const details = newAccount('kycm');
  const { id } = await register(app.app, details);
  if (role === 'admin') await database.db.updateTable('users').set({ role }).where('id', '=', id).execute();
  return { id, token: (await login(app.app, details.email, details.password)).access_token };
}

function upload(token: string, kind: string, bytes: Buffer) {
  const body = multipartUpload(kind, { bytes, filename: 'x.pdf', contentType: 'application/pdf' });
  return app.app.inject({
    method: 'POST',
    url: '/api/identity/documents',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  const clock = { nowMs: () => app.clock.nowMs(), setTimeout: () => () => undefined };
  const { logger } = memoryLogger('warn');
  app = await authTestApp(database.db, {
    plugins: [
      createIdentityPlugin({ db: database.db, clock, registry, logger }),
      createAdminPlugin({ db: database.db, clock, registry }),
    ],
  });
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('identity metrics', () => {
  it('show the queue and its oldest wait, count decisions and refused uploads by reason', async () => {
    expect(await metricValue(registry, 'updown_identity_verifications_pending')).toBe(0);
    expect(await metricValue(registry, 'updown_identity_oldest_pending_seconds')).toBe(0);

    const trader = await account();
    expect((await upload(trader.token, 'photo_id', Buffer.from('not a document'))).statusCode).toBe(400);
    expect((await upload(trader.token, 'photo_id', pdfBytes(11))).statusCode).toBe(400);
    expect((await upload(trader.token, 'photo_id', jpegBytes())).statusCode).toBe(201);
    expect((await upload(trader.token, 'proof_of_address', pdfBytes(1))).statusCode).toBe(201);
    const submitted = await app.app.inject({
      method: 'POST',
      url: '/api/identity/submit',
      headers: bearer(trader.token),
      payload: { full_name: 'Queue Waiter', date_of_birth: '1991-03-04' },
    });
    expect(submitted.statusCode).toBe(200);
    expect((await upload(trader.token, 'photo_id', jpegBytes())).statusCode).toBe(409);
    expect(await metricValue(registry, 'updown_identity_uploads_refused_total', { reason: 'type' })).toBe(1);
    expect(await metricValue(registry, 'updown_identity_uploads_refused_total', { reason: 'pages' })).toBe(1);
    expect(await metricValue(registry, 'updown_identity_uploads_refused_total', { reason: 'locked' })).toBe(
      1,
    );

    app.clock.advance(3_600_000);
    expect(await metricValue(registry, 'updown_identity_verifications_pending')).toBe(1);
    expect(await metricValue(registry, 'updown_identity_oldest_pending_seconds')).toBeCloseTo(3_600, 0);

    // Signed in after the hour has passed: an access token lives 15 minutes.
    const admin = await account('admin');
    const [queued] = (
      await app.app.inject({ method: 'GET', url: '/api/admin/verifications', headers: bearer(admin.token) })
    ).json();
    const decided = await app.app.inject({
      method: 'POST',
      url: `/api/admin/verifications/${queued.id}`,
      headers: bearer(admin.token),
      payload: { action: 'approve' },
    });
    expect(decided.statusCode).toBe(200);
    expect(await metricValue(registry, 'updown_identity_decisions_total', { decision: 'approve' })).toBe(1);
    expect(await metricValue(registry, 'updown_identity_verifications_pending')).toBe(0);
    expect(await metricValue(registry, 'updown_identity_oldest_pending_seconds')).toBe(0);
  });
});
