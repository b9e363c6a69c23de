import { describe, expect, it } from 'vitest';
import {
  decodeDisputeCursor,
  disputeRange,
  encodeDisputeCursor,
  InvalidDisputeQuery,
  pageOf,
} from './dispute-page.domain';

const ID = '0b7c6a2e-5d1f-4c3a-9e8b-7f6a5d4c3b2a';

describe('dispute cursors', () => {
  it('round-trip a position and read as opaque text', () => {
    const cursor = encodeDisputeCursor({ createdAtMs: 1_767_614_400_123, id: ID });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(ID);
    expect(decodeDisputeCursor(cursor)).toEqual({ createdAtMs: 1_767_614_400_123, id: ID });
  });

  it.each([
    ['not base64 of a cursor', 'abc'],
    ['another version', Buffer.from(`d2:1:${ID}`).toString('base64url')],
    ['no id', Buffer.from('d1:1:').toString('base64url')],
    ['an id that is not a uuid', Buffer.from("d1:1:x' or 1=1 --").toString('base64url')],
    ['an unsafe time', Buffer.from(`d1:9999999999999999:${ID}`).toString('base64url')],
    ['a negative time', Buffer.from(`d1:-1:${ID}`).toString('base64url')],
    ['padding', `${encodeDisputeCursor({ createdAtMs: 1, id: ID })}=`],
    ['a character base64url skips', `${encodeDisputeCursor({ createdAtMs: 1, id: ID })}.`],
  ])('refuse %s', (_what, cursor) => {
    expect(() => decodeDisputeCursor(cursor)).toThrow(InvalidDisputeQuery);
    expect(() => decodeDisputeCursor(cursor)).toThrow(/start again from the first page/);
  });
});

describe('disputeRange', () => {
  it('reads ISO times with their zone', () => {
    expect(disputeRange('2026-01-05T12:00:00Z', '2026-01-05T14:00:00+01:00')).toEqual({
      fromMs: Date.UTC(2026, 0, 5, 12),
      toMs: Date.UTC(2026, 0, 5, 13),
    });
    expect(disputeRange(undefined, undefined)).toEqual({ fromMs: undefined, toMs: undefined });
  });

  it('refuses an empty or reversed range and a time out of range, as VALIDATION', () => {
    expect(() => disputeRange('2026-01-05T12:00:00Z', '2026-01-05T12:00:00Z')).toThrow(
      'from must be earlier than to',
    );
    expect(() => disputeRange('2026-01-06T00:00:00Z', '2026-01-05T00:00:00Z')).toThrow(InvalidDisputeQuery);
    expect(() => disputeRange('+275760-09-13T00:00:01Z', undefined)).toThrow(/from is not a date/);
    expect(() => disputeRange(undefined, 'yesterday')).toThrow(
      expect.objectContaining({ code: 'VALIDATION', message: 'to is not a date and time this list can use' }),
    );
  });
});

describe('pageOf', () => {
  const rows = [3, 2, 1].map((n) => ({ id: `${ID.slice(0, -1)}${n}`, created_at_ms: 1_000 + n }));

  it('shows `limit` rows and points after the last one when more follow', () => {
    const page = pageOf(rows, 2);
    expect(page.rows).toEqual(rows.slice(0, 2));
    expect(decodeDisputeCursor(page.nextCursor!)).toEqual({ createdAtMs: 1_002, id: rows[1]!.id });
  });

  it('has no next page when the rows fit', () => {
    expect(pageOf(rows, 3)).toEqual({ rows, nextCursor: null });
    expect(pageOf([], 3)).toEqual({ rows: [], nextCursor: null });
  });
});
