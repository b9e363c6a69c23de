import { DomainError } from '@updown/runtime/errors';
import {
  IDENTITY_MINIMUM_AGE_YEARS,
  IDENTITY_UPLOADS_PER_DAY,
  type IdentityDocumentKind,
  type IdentityStatus,
} from '@updown/schemas/api';

/** Identity verification rules that need no I/O (README "Identity verification"). */

export const DOCUMENT_KINDS: readonly IdentityDocumentKind[] = ['photo_id', 'proof_of_address'];

export const DOCUMENT_KIND_LABELS: Readonly<Record<IdentityDocumentKind, string>> = {
  photo_id: 'a photo ID',
  proof_of_address: 'a proof of address',
};

/** Why an upload was refused, for the refusals metric. */
export type DocumentRefusal =
  'type' | 'empty' | 'size' | 'unreadable' | 'pages' | 'password' | 'image_size' | 'form';

export class InvalidDocument extends DomainError {
  constructor(
    detail: string,
    readonly reason: DocumentRefusal,
  ) {
    super('INVALID_DOCUMENT', detail);
  }
}

/** The daily upload limit is reached; `retryAfterSec` is when the oldest counted upload ages out. */
export class UploadLimitReached extends DomainError {
  constructor(readonly retryAfterSec: number) {
    super(
      'RATE_LIMITED',
      `At most ${IDENTITY_UPLOADS_PER_DAY} documents a day; try again in ${Math.ceil(retryAfterSec / 3600)} h`,
    );
  }
}

/**
 * The account already has as many PDFs being checked or waiting as it may (429): refused at once
 * rather than queued, so one account's burst never lengthens the queue other traders wait in.
 */
export class PdfChecksBusy extends DomainError {
  constructor(
    readonly retryAfterSec: number,
    perAccountMax: number,
  ) {
    super(
      'RATE_LIMITED',
      `Your last ${perAccountMax === 1 ? 'PDF is' : `${perAccountMax} PDFs are`} still being checked; send this one again in ${retryAfterSec} s`,
    );
  }
}

/** Every place in this server's PDF queue is taken (503): refused at once rather than queued. */
export class PdfQueueFull extends DomainError {
  constructor(readonly retryAfterSec: number) {
    super(
      'INSPECTION_QUEUE_FULL',
      `Too many documents are being checked right now; try again in ${retryAfterSec} s`,
    );
  }
}

export class InvalidIdentityDetails extends DomainError {
  constructor(detail: string) {
    super('INVALID_IDENTITY_DETAILS', detail);
  }
}

export class VerificationIncomplete extends DomainError {
  constructor(missing: readonly IdentityDocumentKind[]) {
    super(
      'VERIFICATION_INCOMPLETE',
      `Upload ${missing.map((k) => DOCUMENT_KIND_LABELS[k]).join(' and ')} first`,
    );
  }
}

export class VerificationLocked extends DomainError {
  constructor(status: 'pending' | 'verified') {
    super(
      'VERIFICATION_LOCKED',
      status === 'pending'
        ? 'Your documents are being reviewed; you can change them if they are rejected'
        : 'Your identity is already verified',
    );
  }
}

export class VerificationNotPending extends DomainError {
  constructor(status: string) {
    super('VERIFICATION_NOT_PENDING', `This submission was already decided (${status})`);
  }
}

export class OwnVerification extends DomainError {
  constructor() {
    super('OWN_VERIFICATION', 'You cannot decide your own verification');
  }
}

/**
 * A legal name folded for comparison: accents and case dropped, punctuation and runs of space made
 * one space, words sorted, so "José  O'Neil" and "oneil jose" are the same person's name for the
 * duplicate signal.
 */
export function nameKey(fullName: string): string {
  return fullName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .sort()
    .join(' ');
}

/** Whole years from a YYYY-MM-DD birth date to the UTC day of `nowMs`. */
export function ageInYears(dateOfBirth: string, nowMs: number): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const now = new Date(nowMs);
  const years = now.getUTCFullYear() - y;
  const beforeBirthday = now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d);
  return beforeBirthday ? years - 1 : years;
}

/** Checks the submitted details and returns them trimmed; throws the message the trader sees. */
export function checkDetails(
  input: { full_name: string; date_of_birth: string },
  nowMs: number,
): { fullName: string; nameKey: string; dateOfBirth: string } {
  const fullName = input.full_name.trim().replace(/\s+/g, ' ');
  const key = nameKey(fullName);
  if (fullName.length < 2 || key.length === 0) {
    throw new InvalidIdentityDetails('Enter your full name as on your photo ID');
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.date_of_birth);
  const parsed = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== input.date_of_birth) {
    throw new InvalidIdentityDetails('Enter your date of birth as YYYY-MM-DD');
  }
  if (Number(match[1]) < 1900 || parsed > nowMs) {
    throw new InvalidIdentityDetails('Enter your real date of birth');
  }
  if (ageInYears(input.date_of_birth, nowMs) < IDENTITY_MINIMUM_AGE_YEARS) {
    throw new InvalidIdentityDetails(`You must be ${IDENTITY_MINIMUM_AGE_YEARS} or older to hold an account`);
  }
  return { fullName, nameKey: key, dateOfBirth: input.date_of_birth };
}

/** The trader's state: their latest submission's, or not started without one. */
export function identityStatus(
  latest: { status: 'pending' | 'verified' | 'rejected' } | undefined,
): IdentityStatus {
  return latest?.status ?? 'not_started';
}

/** The kinds still to upload before a submission can be sent. */
export function missingKinds(uploaded: ReadonlySet<IdentityDocumentKind>): IdentityDocumentKind[] {
  return DOCUMENT_KINDS.filter((kind) => !uploaded.has(kind));
}

/** The window the daily upload limit counts over: any 24 hours, not a calendar day. */
export const UPLOAD_WINDOW_MS = 86_400_000;

/**
 * Seconds until one more upload fits the limit, given the times of the account's uploads within
 * the window (oldest first), or undefined while it is under. The upload that frees a place is the
 * one `perDayMax` from the newest: it leaves the window first of those still counting.
 */
export function uploadWaitSec(
  uploadTimesMs: readonly number[],
  nowMs: number,
  perDayMax: number = IDENTITY_UPLOADS_PER_DAY,
): number | undefined {
  if (uploadTimesMs.length < perDayMax) return undefined;
  const freesPlaceMs = uploadTimesMs[uploadTimesMs.length - perDayMax]! + UPLOAD_WINDOW_MS;
  return Math.max(1, Math.ceil((freesPlaceMs - nowMs) / 1000));
}
