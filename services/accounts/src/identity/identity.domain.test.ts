import { describe, expect, it } from 'vitest';
import { UPLOAD_WINDOW_MS, UploadLimitReached, uploadWaitSec } from './identity.domain';

describe('the daily upload limit', () => {
  const start = Date.UTC(2030, 0, 1);
  const every10s = (n: number) => Array.from({ length: n }, (_, i) => start + i * 10_000);

  it('lets an upload through while fewer than the limit fall in the last 24 hours', () => {
    expect(uploadWaitSec([], start)).toBeUndefined();
    expect(uploadWaitSec(every10s(19), start + 200_000)).toBeUndefined();
    expect(uploadWaitSec(every10s(2), start + 30_000, 3)).toBeUndefined();
  });

  it('at the limit, waits until the upload that frees a place leaves the window', () => {
    const nowMs = start + 200_000;
    // The first of the 20 was 200 s ago: it leaves the window 24 h after it was made.
    expect(uploadWaitSec(every10s(20), nowMs)).toBe(24 * 3600 - 200);
    // Past the limit (written before the lock existed), the 20th from the newest decides.
    expect(uploadWaitSec(every10s(25), start + 250_000)).toBe(24 * 3600 - 250 + 50);
    expect(uploadWaitSec([start, start + 1_000], start + 2_000, 2)).toBe(24 * 3600 - 2);
  });

  it('never answers less than a second, and rounds a part of one up', () => {
    expect(uploadWaitSec([start], start + UPLOAD_WINDOW_MS - 1, 1)).toBe(1);
    expect(uploadWaitSec([start], start + UPLOAD_WINDOW_MS - 1_500, 1)).toBe(2);
    expect(uploadWaitSec([start], start + UPLOAD_WINDOW_MS + 5_000, 1)).toBe(1);
  });

  it('tells the trader the wait in whole hours, rounded up', () => {
    const refusal = new UploadLimitReached(24 * 3600 - 200);
    expect(refusal).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'At most 20 documents a day; try again in 24 h',
      retryAfterSec: 24 * 3600 - 200,
    });
    expect(new UploadLimitReached(60).message).toBe('At most 20 documents a day; try again in 1 h');
  });
});
