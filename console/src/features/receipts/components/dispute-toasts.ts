import { formatSignedDollars } from '../../../lib/format';
import type { Dispute } from '../../../lib/disputes';

/*
 * Which dispute resolutions to tell the trader about. A resolution is toasted once per browser:
 * the ids already shown are kept in localStorage, so a reload (or a second tab) does not repeat
 * them. A browser that has never seen the trader's disputes would otherwise announce every past
 * resolution at sign-in, so only those of the last week are announced; older ones are only marked.
 */

/** Resolutions older than this are remembered as shown without a toast. */
export const RESOLUTION_NOTICE_MS_MAX = 7 * 24 * 3600 * 1000;
/** The remembered ids are bounded; an id dropped from the end is older than the notice window. */
export const SHOWN_IDS_MAX = 200;

export interface ResolutionToast {
  disputeId: string;
  title: string;
}

/** `Dispute resolved: settlement confirmed` or `Dispute resolved: corrected by +$8.00`. */
export function resolutionTitle(dispute: Pick<Dispute, 'status' | 'correction'>): string {
  return dispute.status === 'corrected'
    ? `Dispute resolved: corrected by ${formatSignedDollars(dispute.correction ?? 0)}`
    : 'Dispute resolved: settlement confirmed';
}

/**
 * Pure: the toasts to show for `disputes` (the caller's, newest first) given the ids already shown,
 * and the ids to remember afterwards (the newest first, at most `SHOWN_IDS_MAX`).
 */
export function decideResolutionToasts(
  disputes: readonly Dispute[],
  shownIds: readonly string[],
  nowMs: number,
): { toasts: ResolutionToast[]; shownIds: string[] } {
  const shown = new Set(shownIds);
  const resolved = disputes.filter((dispute) => dispute.status !== 'open');
  const toasts = resolved
    .filter((dispute) => !shown.has(dispute.id))
    .filter((dispute) => {
      const resolvedAtMs = Date.parse(dispute.resolved_at ?? '');
      return Number.isFinite(resolvedAtMs) && nowMs - resolvedAtMs <= RESOLUTION_NOTICE_MS_MAX;
    })
    // Oldest first, so the newest resolution ends on top of the toaster.
    .reverse()
    .map((dispute) => ({ disputeId: dispute.id, title: resolutionTitle(dispute) }));
  const newlyResolved = resolved.map((dispute) => dispute.id).filter((id) => !shown.has(id));
  return { toasts, shownIds: [...newlyResolved, ...shownIds].slice(0, SHOWN_IDS_MAX) };
}

function storageKey(userId: string): string {
  return `updown.dispute-toasts.v1.${userId}`;
}

/** The ids shown to `userId` in this browser; an unreadable record counts as none. */
export function loadShownIds(userId: string): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function saveShownIds(userId: string, ids: readonly string[]): void {
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(ids));
  } catch (error) {
    // Storage full or disabled: the toasts may repeat after a reload, nothing worse.
    console.error('Failed to remember the dispute notifications', error);
  }
}
