import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Clock, Database } from '@updown/runtime';
import type { IdentityDocumentKind } from '@updown/schemas/api';
import { PG_UNIQUE_VIOLATION } from '../auth/users.repository';
import { inspectDocument, type PdfAnswer } from './document-inspection';
import {
  missingKinds,
  UPLOAD_WINDOW_MS,
  UploadLimitReached,
  uploadWaitSec,
  VerificationIncomplete,
  VerificationLocked,
} from './identity.domain';
import {
  insertDocument,
  insertSubmission,
  latestSubmission,
  latestUploads,
  lockAccountUploads,
  uploadTimesSince,
  type DocumentRow,
} from './identity.repository';

type Db = Kysely<Database> | Transaction<Database>;

/** What the trader's identity commands need, built once by the identity plugin. */
export interface IdentityContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  /** Opens an uploaded PDF in the account's turn of the app's inspection queue. */
  readonly openPdf: (userId: string, bytes: Buffer) => Promise<PdfAnswer>;
}

/** An upload as read from the request: nothing about it is trusted yet. */
export interface DocumentUpload {
  readonly kind: IdentityDocumentKind;
  readonly bytes: Buffer;
}

/** The legal name and date of birth, as `checkDetails` accepted them. */
export interface IdentityDetails {
  readonly fullName: string;
  readonly nameKey: string;
  readonly dateOfBirth: string;
}

/**
 * At most `IDENTITY_UPLOADS_PER_DAY` uploads per account in any 24 hours, counted in PostgreSQL so
 * every gateway instance sees the same count: each upload costs an inspection and up to 10 MB kept
 * for years. Exact only under `lockAccountUploads`; without the lock it is a cheap early refusal.
 */
async function assertUnderDailyLimit(db: Db, userId: string, nowMs: number): Promise<void> {
  const times = await uploadTimesSince(db, userId, new Date(nowMs - UPLOAD_WINDOW_MS));
  const wait = uploadWaitSec(
    times.map((t) => t.getTime()),
    nowMs,
  );
  if (wait !== undefined) throw new UploadLimitReached(wait);
}

/** Uploads are refused while a submission is pending or once one is verified. */
async function assertOpenForChanges(db: Db, userId: string): Promise<void> {
  const latest = await latestSubmission(db, userId);
  if (latest && latest.status !== 'rejected') throw new VerificationLocked(latest.status);
}

/**
 * Stores a document the trader uploads. `readUpload` reads the request's body, and is called only
 * after the early checks: most refusals cost no 10 MB read and no inspection. The bytes decide
 * what the file is (document-inspection.ts).
 */
export async function uploadDocument(
  ctx: IdentityContext,
  userId: string,
  readUpload: () => Promise<DocumentUpload>,
): Promise<DocumentRow> {
  await assertOpenForChanges(ctx.db, userId);
  await assertUnderDailyLimit(ctx.db, userId, ctx.clock.nowMs());
  const { kind, bytes } = await readUpload();
  const doc = await inspectDocument(bytes, (pdf) => ctx.openPdf(userId, pdf));
  // Checked again under the account's lock, with the insert: uploads sent at once, or a
  // submission sent meanwhile, were not counted by the early checks.
  return ctx.db.transaction().execute(async (trx) => {
    await lockAccountUploads(trx, userId);
    await assertOpenForChanges(trx, userId);
    await assertUnderDailyLimit(trx, userId, ctx.clock.nowMs());
    return insertDocument(trx, { id: randomUUID(), userId, kind, doc, bytes, at: ctx.clock.nowMs() });
  });
}

/**
 * Sends the latest photo ID and proof of address with the trader's details for review: pending
 * until an admin decides. Refused while a submission is pending or verified, and while a document
 * is missing.
 */
export async function submitIdentity(
  ctx: IdentityContext,
  userId: string,
  details: IdentityDetails,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    // The uploads' lock: no document is added between reading the latest ones and the insert.
    await lockAccountUploads(trx, userId);
    const latest = await latestSubmission(trx, userId);
    if (latest && latest.status !== 'rejected') throw new VerificationLocked(latest.status);
    const uploads = await latestUploads(trx, userId);
    const byKind = new Map(uploads.map((d) => [d.kind, d.id]));
    const missing = missingKinds(new Set(byKind.keys()));
    if (missing.length > 0) throw new VerificationIncomplete(missing);
    try {
      await insertSubmission(trx, {
        id: randomUUID(),
        userId,
        fullName: details.fullName,
        nameKey: details.nameKey,
        dateOfBirth: details.dateOfBirth,
        photoId: byKind.get('photo_id')!,
        proofOfAddress: byKind.get('proof_of_address')!,
        at: ctx.clock.nowMs(),
      });
    } catch (error) {
      // Two submissions at once: the partial unique index lets one be pending.
      if ((error as { code?: string }).code === PG_UNIQUE_VIOLATION) throw new VerificationLocked('pending');
      throw error;
    }
  });
}
