import { DomainError } from '@updown/runtime/errors';
import type { DisputeStatus } from './dispute.domain';

/**
 * The admins' list of disputes, a page at a time, newest first. A page ends at a position (the
 * last dispute's filing time and id) and the next page starts strictly after it, so disputes filed
 * while an admin pages only ever appear above the first page: none is skipped or shown twice, and
 * every dispute is reached by paging to the end however many one trader files.
 */

export const DISPUTE_PAGE_LIMIT_DEFAULT = 50;
export const DISPUTE_PAGE_LIMIT_MAX = 200;

/** Where a page ended: the list is ordered by (createdAtMs, id), both descending. */
export interface DisputePosition {
  readonly createdAtMs: number;
  readonly id: string;
}

/** Which disputes the list holds; every field is optional and they combine with "and". */
export interface DisputeFilter {
  readonly status?: DisputeStatus;
  readonly userId?: string;
  readonly pair?: string;
  /** Filed at or after this time. */
  readonly fromMs?: number;
  /** Filed before this time. */
  readonly toMs?: number;
}

/** A filter or cursor the list cannot use: a 400 naming what to fix. */
export class InvalidDisputeQuery extends DomainError {
  constructor(detail: string) {
    super('VALIDATION', detail);
    this.name = 'InvalidDisputeQuery';
  }
}

/** The version in front of a cursor's text, so the format can change without misreading old ones. */
const CURSOR_VERSION = 'd1';
const CURSOR_TEXT = /^d1:(\d{1,16}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const CURSOR_REFUSED = 'cursor is not one this list gave out; start again from the first page';

/** The opaque `next_cursor`: clients pass it back unchanged and never need to read it. */
export function encodeDisputeCursor(position: DisputePosition): string {
  return Buffer.from(`${CURSOR_VERSION}:${position.createdAtMs}:${position.id}`, 'utf8').toString(
    'base64url',
  );
}

/** The position a cursor stands for; anything `encodeDisputeCursor` did not write is refused. */
export function decodeDisputeCursor(cursor: string): DisputePosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = CURSOR_TEXT.exec(text);
  const createdAtMs = match ? Number(match[1]) : NaN;
  // Base64url decoding skips characters it does not know: only the canonical spelling is taken.
  if (
    !match ||
    !Number.isSafeInteger(createdAtMs) ||
    encodeDisputeCursor({ createdAtMs, id: match[2]! }) !== cursor
  )
    throw new InvalidDisputeQuery(CURSOR_REFUSED);
  return { createdAtMs, id: match[2]! };
}

/**
 * The filing-time range of an ISO 8601 `from` and `to`, refused when a time is out of JavaScript's
 * range or the range holds nothing because it ends where, or before, it starts.
 */
export function disputeRange(
  from: string | undefined,
  to: string | undefined,
): Pick<DisputeFilter, 'fromMs' | 'toMs'> {
  const timeMs = (text: string | undefined, name: string) => {
    if (text === undefined) return undefined;
    const ms = Date.parse(text);
    if (!Number.isSafeInteger(ms))
      throw new InvalidDisputeQuery(`${name} is not a date and time this list can use`);
    return ms;
  };
  const fromMs = timeMs(from, 'from');
  const toMs = timeMs(to, 'to');
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs)
    throw new InvalidDisputeQuery('from must be earlier than to');
  return { fromMs, toMs };
}

/**
 * The page's rows and where the next one starts: `rows` holds up to `limit + 1` disputes in list
 * order (the extra one only says that more follow), and the cursor points after the last one shown.
 */
export function pageOf<R extends { readonly created_at_ms: number; readonly id: string }>(
  rows: readonly R[],
  limit: number,
): { readonly rows: readonly R[]; readonly nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1]!;
  return { rows: shown, nextCursor: encodeDisputeCursor({ createdAtMs: last.created_at_ms, id: last.id }) };
}
