import type { Schemas } from './api-schema';

/**
 * An account's security activity as the owner's Security card and the admin's Users tab show it:
 * pages of events, newest first, each page naming the cursor of the next (README "Account
 * security").
 */
export type SecurityEvent = Schemas['SecurityEvent'];
export type SecurityActivityPage = Schemas['SecurityActivity'];

/**
 * Events asked for per page: a screenful on the dashboard; "Load more" asks for the next one. The
 * server allows up to 100.
 */
export const SECURITY_ACTIVITY_PAGE_EVENTS = 10;

/** The cursor of the page after `page`, or undefined on the last page (how TanStack Query stops). */
export function nextSecurityActivityCursor(page: SecurityActivityPage): string | undefined {
  return page.next_cursor ?? undefined;
}

/** Every event of the pages loaded so far, in order. */
export function eventsOfPages(pages: readonly SecurityActivityPage[] | undefined): SecurityEvent[] {
  return (pages ?? []).flatMap((page) => page.events);
}

/** A date and time in the reader's locale and time zone, as sign-ins and events are shown. */
export function formatEventTime(iso: string): string {
  return new Date(iso).toLocaleString();
}
