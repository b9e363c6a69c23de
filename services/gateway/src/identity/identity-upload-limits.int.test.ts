import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '@updown/runtime';
import { createTestDatabase, metricValue, type TestDatabase } from '@updown/runtime/testing';
import { IDENTITY_UPLOADS_PER_DAY } from '@updown/schemas/api';
import {
  authTestApp,
  bearer,
  login,
  newAccount,
  register,
  type AuthTestApp,
} from '../auth/testing/auth-test-app';
import { multipartUpload, pdfBytes, pngBytes } from '@updown/accounts/testing';
import { openPdfInWorker, type PdfAnswer } from '@updown/accounts';
import { createIdentityPlugin } from './identity.routes';

/**
 * The upload limits under concurrency: the daily limit with many uploads at once, and the PDF
 * inspection queue's bounds. PDFs carrying a `% held` line wait in the opener until the test opens
 * the gate, so the assertions are about who was admitted, refused and answered while others were
 * still being checked, never about how long anything took. Real pdf.js opens every PDF.
 */

let database: TestDatabase;
let app: AuthTestApp;
const registry = createMetricsRegistry();

const gate = {
  /** The tag of every PDF the opener was called for, in order. */
  opened: [] as string[],
  open: false,
  parked: [] as (() => void)[],
  release(): void {
    this.open = true;
    for (const resume of this.parked.splice(0)) resume();
  },
};

async function openPdf(bytes: Buffer): Promise<PdfAnswer> {
  const text = bytes.toString('latin1');
  gate.opened.push(/% tag (\S+)/.exec(text)?.[1] ?? '?');
  if (text.includes('% held') && !gate.open) await new Promise<void>((resume) => gate.parked.push(resume));
  return openPdfInWorker(bytes);
}

function pdf(tag: string, held: boolean): Buffer {
  return Buffer.concat([pdfBytes(1), Buffer.from(`% tag ${tag}\n${held ? '% held\n' : ''}`)]);
}

interface Account {
  id: string;
  token: string;
}

async function account(): Promise<Account> {
  const details = newAccount('kycq');
  const { id } = await register(app.app, details);
  return { id, token: (await login(app.app, details.email, details.password)).access_token };
}

function upload(who: Account, bytes: Buffer, kind = 'proof_of_address') {
  const body = multipartUpload(kind, { bytes, filename: 'document.pdf', contentType: 'application/pdf' });
  return app.app.inject({
    method: 'POST',
    url: '/api/identity/documents',
    headers: { ...bearer(who.token), ...body.headers },
    payload: body.payload,
  });
}

async function documentCount(userId: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from identity_documents where user_id = ${userId}`.execute(database.db);
  return rows[0]!.n;
}

/** Waits for something the server does in its own time; the test's timeout bounds it. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** `requests` as they are answered, to look at while some are still in flight. */
function answeredSoFar(requests: Promise<LightMyRequestResponse>[]): LightMyRequestResponse[] {
  const answered: LightMyRequestResponse[] = [];
  for (const request of requests) void request.then((answer) => answered.push(answer));
  return answered;
}

function refusals(reason: string) {
  return metricValue(registry, 'updown_identity_uploads_refused_total', { reason });
}

beforeAll(async () => {
  database = await createTestDatabase({ max: 20 });
  const clock = { nowMs: () => app.clock.nowMs(), setTimeout: () => () => undefined };
  app = await authTestApp(database.db, {
    plugins: [
      createIdentityPlugin({
        db: database.db,
        clock,
        registry,
        openPdf,
        // The default bounds but one waiting place, so three accounts fill the queue.
        pdfInspections: { runningMax: 2, perAccountMax: 2, waitingMax: 1 },
      }),
    ],
  });
});
afterEach(() => {
  gate.release();
  gate.open = false;
  gate.opened.length = 0;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('the daily upload limit under concurrency', () => {
  it('stores exactly 20 of 30 uploads sent at once and refuses the other 10 with Retry-After', async () => {
    const trader = await account();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => upload(trader, pngBytes(10 + i, 10), 'photo_id')),
    );
    const stored = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(stored).toHaveLength(IDENTITY_UPLOADS_PER_DAY);
    expect(refused).toHaveLength(30 - IDENTITY_UPLOADS_PER_DAY);
    for (const answer of refused) {
      expect(answer.json()).toEqual({
        code: 'RATE_LIMITED',
        detail: 'At most 20 documents a day; try again in 24 h',
      });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    }
    expect(await documentCount(trader.id)).toBe(IDENTITY_UPLOADS_PER_DAY);
    expect(await refusals('daily_limit')).toBe(10);
  });
});

describe('the PDF inspection queue', () => {
  it("refuses one account's burst past its bound at once, and inspects another trader's PDF while the burst is still being checked", async () => {
    const burster = await account();
    const other = await account();
    const burst = Array.from({ length: 10 }, (_, i) => upload(burster, pdf(`burst-${i}`, true)));
    const answered = answeredSoFar(burst);
    // Two admitted (one opening, one waiting behind it, as an account opens one at a time), and
    // the other eight answered without waiting for either.
    await until(() => answered.length === 8 && gate.opened.length === 1);
    for (const refused of answered) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        code: 'RATE_LIMITED',
        detail: expect.stringMatching(
          /^Your last 2 PDFs are still being checked; send this one again in \d+ s$/,
        ),
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(await refusals('pdf_queue_account')).toBe(8);

    // The other trader's PDF is opened and stored while the burst's first is still held.
    const single = await upload(other, pdf('single', false));
    expect(single.statusCode, single.body).toBe(201);
    expect(single.json()).toMatchObject({ content_type: 'application/pdf', pages: 1 });
    expect(gate.opened).toEqual([expect.stringMatching(/^burst-/), 'single']);
    expect(answered).toHaveLength(8);

    gate.release();
    const all = await Promise.all(burst);
    expect(all.filter((a) => a.statusCode === 201)).toHaveLength(2);
    expect(await documentCount(burster.id)).toBe(2);
    expect(await documentCount(other.id)).toBe(1);
  });

  it('refuses with 503 and Retry-After once every waiting place is taken, storing nothing', async () => {
    const [first, second, third] = [await account(), await account(), await account()];
    // first: one opening and one waiting (the only waiting place); second: opening in the other slot.
    const held = [
      upload(first, pdf('first-1', true)),
      upload(first, pdf('first-2', true)),
      upload(second, pdf('second-1', true)),
    ];
    await until(() => gate.opened.length === 2);
    const full = await upload(third, pdf(`third-${randomUUID()}`, false));
    expect(full.statusCode).toBe(503);
    expect(full.json()).toEqual({
      code: 'INSPECTION_QUEUE_FULL',
      detail: expect.stringMatching(/^Too many documents are being checked right now; try again in \d+ s$/),
    });
    expect(Number(full.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await documentCount(third.id)).toBe(0);
    expect(await refusals('pdf_queue_full')).toBe(1);

    gate.release();
    expect((await Promise.all(held)).map((a) => a.statusCode)).toEqual([201, 201, 201]);
    // Once the queue drains, the refused trader's PDF goes through.
    expect((await upload(third, pdf('third-again', false))).statusCode).toBe(201);
  });
});
