import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@updown/runtime/testing';
import { getUserBalances, verifyLedger } from '@updown/wallet';
import { fundUser } from '@updown/wallet/testing';
import { IDENTITY_DOCUMENT_BYTES_MAX, IDENTITY_UPLOADS_PER_DAY } from '@updown/schemas/api';
import {
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { createAdminPlugin } from '../admin/admin.routes';
import { createWalletPlugin } from '../wallet/wallet.routes';
import { jpegBytes, multipartUpload, pdfBytes, pngBytes } from '@updown/accounts/testing';
import { createIdentityPlugin } from './identity.routes';
import { purgeExpiredIdentityData } from '@updown/accounts';

let database: TestDatabase;
let app: AuthTestApp;
let admin: Account;
let secondAdmin: Account;

interface Account {
  id: string;
  token: string;
  email?: string;
  password?: string;
}

async function account(role: 'user' | 'admin' = 'user', realDollars = 0): Promise<Account> {
  const details = newAccount('kyc');
  const { id } = await register(app.app, details);
  if (role === 'admin') await database.db.updateTable('users').set({ role }).where('id', '=', id).execute();
  const { access_token } = await login(app.app, details.email, details.password);
  await fundUser(database.db, id, { realCents: realDollars * 100 });
  return { id, token: access_token, email: details.email, password: details.password };
}

function call(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) {
  return app.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

function upload(
  who: Account,
  kind: string | undefined,
  bytes: Buffer | undefined,
  claimed = { filename: 'document.jpg', contentType: 'image/jpeg' },
) {
  const body = multipartUpload(kind, bytes ? { bytes, ...claimed } : undefined);
  return app.app.inject({
    method: 'POST',
    url: '/api/identity/documents',
    headers: { ...bearer(who.token), ...body.headers },
    payload: body.payload,
  });
}

/** A document no other account uploaded: each test account has its own, unless a test shares one. */
function ownPdf(): Buffer {
  return Buffer.concat([pdfBytes(1), Buffer.from(`% ${randomUUID()}\n`)]);
}

async function uploadBoth(who: Account, photo: Buffer = ownPdf(), address: Buffer = ownPdf()) {
  for (const [kind, bytes] of [
    ['photo_id', photo],
    ['proof_of_address', address],
  ] as const) {
    const res = await upload(who, kind, bytes);
    expect(res.statusCode, res.body).toBe(201);
  }
}

function submit(who: Account, fullName = 'Ada Lovelace', dateOfBirth = '1990-12-10') {
  return call('POST', '/api/identity/submit', who.token, { full_name: fullName, date_of_birth: dateOfBirth });
}

async function submitted(who: Account, fullName?: string, dateOfBirth?: string): Promise<string> {
  await uploadBoth(who);
  const res = await submit(who, fullName, dateOfBirth);
  expect(res.statusCode, res.body).toBe(200);
  const row = await database.db
    .selectFrom('identity_submissions')
    .select('id')
    .where('user_id', '=', who.id)
    .orderBy('seq', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

function decide(who: Account, id: string, action: 'approve' | 'reject', reason?: string) {
  return call('POST', `/api/admin/verifications/${id}`, who.token, {
    action,
    ...(reason === undefined ? {} : { reason }),
  });
}

async function documentCount(userId: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from identity_documents where user_id = ${userId}`.execute(database.db);
  return rows[0]!.n;
}

function withdraw(who: Account, amount: number) {
  return call('POST', '/api/wallet/withdraw', who.token, { amount, account_type: 'real' });
}

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  const clock = { nowMs: () => app.clock.nowMs(), setTimeout: () => () => undefined };
  app = await authTestApp(database.db, {
    plugins: [
      createWalletPlugin({ db: database.db, clock }),
      createIdentityPlugin({ db: database.db, clock }),
      createAdminPlugin({ db: database.db, clock }),
    ],
  });
  admin = await account('admin');
  secondAdmin = await account('admin');
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('uploading documents', () => {
  it('takes a JPEG, a PNG and a PDF, detected from the content, and lists the latest of each kind', async () => {
    const trader = await account();
    expect((await call('GET', '/api/identity', trader.token)).json()).toMatchObject({
      status: 'not_started',
      missing: ['photo_id', 'proof_of_address'],
      documents: [],
      can_withdraw: false,
    });
    // Named .pdf and sent as a PDF, but it is a PNG: the bytes decide.
    const png = await upload(trader, 'photo_id', pngBytes(64, 48), {
      filename: 'scan.pdf',
      contentType: 'application/pdf',
    });
    expect(png.statusCode, png.body).toBe(201);
    expect(png.json()).toMatchObject({ kind: 'photo_id', content_type: 'image/png', pages: null });
    const jpeg = await upload(trader, 'photo_id', jpegBytes());
    expect(jpeg.json()).toMatchObject({ content_type: 'image/jpeg', size_bytes: jpegBytes().length });
    const pdf = await upload(trader, 'proof_of_address', pdfBytes(3), {
      filename: 'bill',
      contentType: 'application/octet-stream',
    });
    expect(pdf.json()).toMatchObject({ content_type: 'application/pdf', pages: 3 });

    const identity = (await call('GET', '/api/identity', trader.token)).json();
    expect(identity.missing).toEqual([]);
    expect(identity.documents.map((d: { id: string }) => d.id).sort()).toEqual(
      [jpeg.json().id, pdf.json().id].sort(),
    );
  });

  it('takes a document just under the size limit, far past the JSON body limit', async () => {
    const trader = await account();
    const big = Buffer.concat([
      pdfBytes(1),
      Buffer.from('%'),
      Buffer.alloc(IDENTITY_DOCUMENT_BYTES_MAX - 2_000, 0x41),
    ]);
    expect(big.length).toBeLessThanOrEqual(IDENTITY_DOCUMENT_BYTES_MAX);
    const res = await upload(trader, 'proof_of_address', big);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ size_bytes: big.length, content_type: 'application/pdf', pages: 1 });
  });

  it('refuses a wrong type behind a right name and header, an empty file, an oversize file and a PDF bomb, storing nothing', async () => {
    const trader = await account();
    const cases: [Buffer, number, string][] = [
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        400,
        'JPEG, PNG or PDF',
      ],
      [Buffer.from('MZ\x90\x00 an executable'), 400, 'JPEG, PNG or PDF'],
      [Buffer.alloc(0), 400, 'The file is empty'],
      [
        Buffer.concat([jpegBytes(), Buffer.alloc(IDENTITY_DOCUMENT_BYTES_MAX)]),
        413,
        'A document may be at most 10 MB',
      ],
      [pdfBytes(20_000), 400, 'The PDF has 20000 pages; a document may have at most 10'],
      [pngBytes(20_000, 20_000, { declaredOnly: true }), 400, '20000×20000 pixels'],
    ];
    for (const [bytes, status, detail] of cases) {
      const res = await upload(trader, 'photo_id', bytes, {
        filename: 'passport.jpg',
        contentType: 'image/jpeg',
      });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().detail).toContain(detail);
    }
    expect(await documentCount(trader.id)).toBe(0);
  });

  it('refuses an upload with no kind, an unknown kind, no file, or a JSON body', async () => {
    const trader = await account();
    expect((await upload(trader, undefined, jpegBytes())).json()).toMatchObject({ code: 'INVALID_DOCUMENT' });
    expect((await upload(trader, 'selfie', jpegBytes())).json().detail).toBe(
      'kind is photo_id or proof_of_address',
    );
    expect((await upload(trader, 'photo_id', undefined)).json().detail).toBe('Choose a file to upload');
    const json = await call('POST', '/api/identity/documents', trader.token, { kind: 'photo_id' });
    expect(json.statusCode).toBe(415);
    expect(json.json().detail).toContain('multipart/form-data');
    expect(await documentCount(trader.id)).toBe(0);
    expect((await upload({ id: '', token: 'nope' }, 'photo_id', jpegBytes())).statusCode).toBe(401);
  });

  it('never writes a document or its hash to the log', async () => {
    const trader = await account();
    const marker = `MARKER-${randomUUID()}`;
    const pdf = Buffer.concat([pdfBytes(1), Buffer.from(`% ${marker}\n`)]);
    const res = await upload(trader, 'proof_of_address', pdf);
    expect(res.statusCode, res.body).toBe(201);
    const text = app.logText();
    expect(text).not.toContain(marker);
    expect(text).not.toContain(res.json().sha256);
  });
});

describe('reading a document back', () => {
  it('answers the owner and admins with the bytes, never cached, and 404 to another trader', async () => {
    const owner = await account();
    const other = await account();
    const bytes = pngBytes(20, 20);
    const { id } = (await upload(owner, 'photo_id', bytes)).json();
    const mine = await app.app.inject({
      method: 'GET',
      url: `/api/identity/documents/${id}`,
      headers: bearer(owner.token),
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(bytes)).toBe(true);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.headers['content-security-policy']).toContain('sandbox');
    const asAdmin = await app.app.inject({
      method: 'GET',
      url: `/api/identity/documents/${id}`,
      headers: bearer(admin.token),
    });
    expect(asAdmin.rawPayload.equals(bytes)).toBe(true);
    for (const url of [`/api/identity/documents/${id}`, `/api/identity/documents/${randomUUID()}`]) {
      const res = await app.app.inject({ method: 'GET', url, headers: bearer(other.token) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'NOT_FOUND', detail: 'Document not found' });
    }
  });
});

describe('submitting for review', () => {
  it('needs both documents, a real name and an adult date of birth', async () => {
    const trader = await account();
    await upload(trader, 'photo_id', jpegBytes());
    expect((await submit(trader)).json()).toEqual({
      code: 'VERIFICATION_INCOMPLETE',
      detail: 'Upload a proof of address first',
    });
    await upload(trader, 'proof_of_address', pdfBytes(1));
    const now = new Date(app.clock.nowMs());
    const seventeen = `${now.getUTCFullYear() - 17}-01-01`;
    const young = await submit(trader, 'Young Trader', seventeen);
    expect(young.statusCode).toBe(400);
    expect(young.json()).toEqual({
      code: 'INVALID_IDENTITY_DETAILS',
      detail: 'You must be 18 or older to hold an account',
    });
    expect((await submit(trader, 'Ada', '1990-02-30')).json().detail).toBe(
      'Enter your date of birth as YYYY-MM-DD',
    );
    expect((await submit(trader, '  .  ', '1990-01-01')).json().code).toBe('INVALID_IDENTITY_DETAILS');
    const extra = await call('POST', '/api/identity/submit', trader.token, {
      full_name: 'Ada Lovelace',
      date_of_birth: '1990-01-01',
      status: 'verified',
    });
    expect(extra.statusCode).toBe(400);
    expect(
      await database.db
        .selectFrom('identity_submissions')
        .select('id')
        .where('user_id', '=', trader.id)
        .execute(),
    ).toEqual([]);
  });

  it('locks the documents while pending: no upload, no second submission, even two at once', async () => {
    const trader = await account();
    await uploadBoth(trader);
    const [a, b] = await Promise.all([submit(trader), submit(trader)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const pending = (await call('GET', '/api/identity', trader.token)).json();
    expect(pending).toMatchObject({
      status: 'pending',
      missing: [],
      full_name: 'Ada Lovelace',
      date_of_birth: '1990-12-10',
    });
    const late = await upload(trader, 'photo_id', jpegBytes());
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('VERIFICATION_LOCKED');
  });
});

describe('withdrawals before verification', () => {
  it('are refused with IDENTITY_NOT_VERIFIED and move nothing; deposits stay open; after approval one goes through', async () => {
    const trader = await account('user', 100);
    const before = await getUserBalances(database.db, trader.id);
    const refused = await withdraw(trader, 40);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'IDENTITY_NOT_VERIFIED',
      detail:
        'Verify your identity before withdrawing: upload a photo ID and a proof of address on your dashboard',
    });
    expect(await getUserBalances(database.db, trader.id)).toEqual(before);
    const rows = await database.db
      .selectFrom('withdrawal_requests')
      .select('id')
      .where('user_id', '=', trader.id)
      .execute();
    expect(rows).toEqual([]);
    expect(
      (await call('POST', '/api/wallet/deposit', trader.token, { amount: 10, account_type: 'real' }))
        .statusCode,
    ).toBe(200);

    const id = await submitted(trader);
    expect((await withdraw(trader, 40)).statusCode).toBe(403); // pending is not verified
    expect((await decide(admin, id, 'approve')).json()).toMatchObject({ status: 'verified' });
    expect((await call('GET', '/api/identity', trader.token)).json()).toMatchObject({
      status: 'verified',
      can_withdraw: true,
    });
    const accepted = await withdraw(trader, 40);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'pending', real_balance: 70 });

    const list = (await call('GET', '/api/admin/withdrawals', admin.token)).json();
    expect(list.find((r: { user_id: string }) => r.user_id === trader.id)).toMatchObject({
      identity_status: 'verified',
    });
    expect((await verifyLedger(database.db)).ok).toBe(true);
  });
});

describe('the admin decision', () => {
  it('lists the queue oldest first and shows a submission with its documents and history', async () => {
    const trader = await account();
    const id = await submitted(trader, 'Grace Hopper', '1986-12-09');
    const queue = (await call('GET', '/api/admin/verifications', admin.token)).json();
    const row = queue.find((s: { id: string }) => s.id === id);
    expect(row).toMatchObject({
      user_id: trader.id,
      full_name: 'Grace Hopper',
      date_of_birth: '1986-12-09',
      status: 'pending',
    });
    const times = queue.map((s: { submitted_at: string }) => s.submitted_at);
    expect([...times].sort()).toEqual(times);
    const detail = (await call('GET', `/api/admin/verifications/${id}`, admin.token)).json();
    expect(detail.documents.map((d: { kind: string }) => d.kind).sort()).toEqual([
      'photo_id',
      'proof_of_address',
    ]);
    expect(detail.history).toHaveLength(1);
    expect((await call('GET', `/api/admin/verifications/${randomUUID()}`, admin.token)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/verifications?status=maybe', admin.token)).statusCode).toBe(400);
    expect((await call('GET', '/api/admin/verifications', trader.token)).statusCode).toBe(403);
  });

  it('lets one of two admins deciding at once win; the other gets 409, and one audit record is written', async () => {
    const trader = await account();
    const id = await submitted(trader);
    const answers = await Promise.all([
      decide(admin, id, 'approve'),
      decide(secondAdmin, id, 'reject', 'Blurred'),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = answers.find((a) => a.statusCode === 409)!;
    expect(loser.json().code).toBe('VERIFICATION_NOT_PENDING');
    const audits = await database.db
      .selectFrom('admin_audit')
      .select('action')
      .where('target', '=', id)
      .execute();
    expect(audits).toHaveLength(1);
    const winner = answers.find((a) => a.statusCode === 200)!.json();
    const cleared = await database.db
      .selectFrom('withdrawal_clearances')
      .select('user_id')
      .where('user_id', '=', trader.id)
      .execute();
    expect(cleared).toHaveLength(winner.status === 'verified' ? 1 : 0);
  });

  it('never lets an admin decide their own submission', async () => {
    const id = await submitted(admin, 'Root Admin', '1970-01-01');
    const own = await decide(admin, id, 'approve');
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({
      code: 'OWN_VERIFICATION',
      detail: 'You cannot decide your own verification',
    });
    expect((await call('GET', '/api/identity', admin.token)).json().status).toBe('pending');
    expect((await decide(secondAdmin, id, 'approve')).statusCode).toBe(200);
  });

  it('needs a reason to reject; the trader sees it, uploads again and re-submits; the history keeps both', async () => {
    const trader = await account();
    const first = await submitted(trader);
    const noReason = await decide(admin, first, 'reject', '   ');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().detail).toBe('Give the reason for the rejection: the trader sees it');
    expect(
      (await decide(admin, first, 'reject', 'The address document is older than 3 months')).statusCode,
    ).toBe(200);
    const rejected = (await call('GET', '/api/identity', trader.token)).json();
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejection_reason: 'The address document is older than 3 months',
    });
    expect((await upload(trader, 'proof_of_address', pdfBytes(2))).statusCode).toBe(201);
    expect((await submit(trader)).json().status).toBe('pending');
    const again = (await call('GET', '/api/admin/verifications', admin.token))
      .json()
      .find((s: { user_id: string }) => s.user_id === trader.id);
    const detail = (await call('GET', `/api/admin/verifications/${again.id}`, admin.token)).json();
    expect(detail.history.map((h: { status: string }) => h.status)).toEqual(['pending', 'rejected']);
    expect(detail.documents.find((d: { kind: string }) => d.kind === 'proof_of_address').pages).toBe(2);
    const audit = await database.db
      .selectFrom('admin_audit')
      .select(['action', 'after'])
      .where('target', '=', first)
      .execute();
    expect(audit).toEqual([
      {
        action: 'identity.reject',
        after: {
          status: 'rejected',
          user_id: trader.id,
          reason: 'The address document is older than 3 months',
        },
      },
    ]);
  });
});

describe('duplicate-account signals', () => {
  it('flag both accounts on the same document or the same name and date of birth, and block nothing', async () => {
    const first = await account();
    const second = await account();
    const third = await account();
    const shared = pngBytes(33, 21);
    await uploadBoth(first, shared);
    await uploadBoth(second, shared);
    expect((await submit(first, 'Alan Turing', '1980-06-23')).statusCode).toBe(200);
    expect((await submit(second, 'Someone Else', '1981-01-01')).statusCode).toBe(200);
    const thirdId = await submitted(third, '  TURING,   alan ', '1980-06-23');
    const queue = (await call('GET', '/api/admin/verifications', admin.token)).json();
    const signals = (userId: string) =>
      queue.find((s: { user_id: string }) => s.user_id === userId).duplicate_signals;
    expect(signals(first.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: second.id, reason: 'same_document' }),
        expect.objectContaining({ user_id: third.id, reason: 'same_name_and_birth_date' }),
      ]),
    );
    expect(signals(second.id)).toEqual([
      expect.objectContaining({ user_id: first.id, reason: 'same_document' }),
    ]);
    expect(signals(third.id)).toEqual([
      expect.objectContaining({ user_id: first.id, reason: 'same_name_and_birth_date' }),
    ]);
    expect((await decide(admin, thirdId, 'approve')).statusCode).toBe(200);
  });
});

describe('retention', () => {
  it('keeps identity data until five years after the account closes: the database refuses earlier deletion', async () => {
    const open = await account();
    await submitted(open);
    await expect(
      sql`delete from identity_submissions where user_id = ${open.id}`.execute(database.db),
    ).rejects.toThrow(/kept until five years after the account closes/);
    await expect(
      sql`update identity_documents set content = null, purged_at = now() where user_id = ${open.id}`.execute(
        database.db,
      ),
    ).rejects.toThrow(/kept until five years/);

    const now = Date.now();
    const recentlyClosed = await account();
    await submitted(recentlyClosed);
    const longClosed = await account();
    await submitted(longClosed);
    const years = (n: number, days = 0) => {
      const d = new Date(now);
      d.setUTCFullYear(d.getUTCFullYear() - n);
      return new Date(d.getTime() - days * 86_400_000);
    };
    await database.db
      .updateTable('users')
      .set({ closed_at: years(5, -1) })
      .where('id', '=', recentlyClosed.id)
      .execute();
    await database.db
      .updateTable('users')
      .set({ closed_at: years(5, 1) })
      .where('id', '=', longClosed.id)
      .execute();
    expect(await purgeExpiredIdentityData(database.db, now)).toBe(1);
    expect(await documentCount(longClosed.id)).toBe(0);
    expect(await documentCount(recentlyClosed.id)).toBe(2);
    expect(await documentCount(open.id)).toBe(2);
    // A wrong clock cannot reach past the database's own: the guard refuses and the pass fails.
    await expect(purgeExpiredIdentityData(database.db, now + 2 * 86_400_000)).rejects.toThrow(
      /kept until five years/,
    );
    expect(await documentCount(recentlyClosed.id)).toBe(2);
  });
});

// Last: it moves the shared clock a day on, past every earlier test's access tokens.
describe('the daily upload limit', () => {
  it('takes at most 20 uploads an account in 24 hours, then 429 with Retry-After until the oldest ages out', async () => {
    const trader = await account();
    const other = await account();
    for (let i = 0; i < IDENTITY_UPLOADS_PER_DAY; i++) {
      expect((await upload(trader, 'photo_id', pngBytes(10 + i, 10))).statusCode).toBe(201);
      app.clock.advance(10_000);
    }
    const refused = await upload(trader, 'photo_id', pngBytes(9, 9));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'RATE_LIMITED',
      detail: 'At most 20 documents a day; try again in 24 h',
    });
    // The first upload leaves the window 24 h after it was made, 200 s ago.
    expect(Number(refused.headers['retry-after'])).toBe(24 * 3600 - 200);
    expect(await documentCount(trader.id)).toBe(IDENTITY_UPLOADS_PER_DAY);
    expect((await upload(other, 'photo_id', pngBytes(9, 9))).statusCode).toBe(201);
    app.clock.advance((24 * 3600 - 200) * 1000);
    // A day later: signed in again (an access token lives 15 minutes), and one upload is free again.
    const { access_token } = await login(app.app, trader.email!, trader.password!);
    expect((await upload({ ...trader, token: access_token }, 'photo_id', pngBytes(9, 9))).statusCode).toBe(
      201,
    );
    expect((await upload({ ...trader, token: access_token }, 'photo_id', pngBytes(8, 8))).statusCode).toBe(
      429,
    );
  });
});
