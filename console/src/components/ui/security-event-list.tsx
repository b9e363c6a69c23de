import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import {
  eventsOfPages,
  formatEventTime,
  type SecurityActivityPage,
  type SecurityEvent,
} from '../../lib/security-activity';

/** What the list reads of a paged security-activity query (the owner's or the admin's). */
export type SecurityActivityQuery = Pick<
  UseInfiniteQueryResult<InfiniteData<SecurityActivityPage>>,
  'data' | 'isPending' | 'isError' | 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'
>;

/** Events that may mean someone else is trying the account: shown in the warning colour. */
const ALARMING: ReadonlySet<SecurityEvent['kind']> = new Set(['sign_in_failures', 'refresh_token_reused']);

function EventItem({ event }: { event: SecurityEvent }) {
  return (
    <li className="security-list__item" data-kind={event.kind}>
      <div className="security-list__text">
        <strong className={ALARMING.has(event.kind) ? 'text-down' : undefined}>{event.description}</strong>
        <span className="muted small">
          {event.device} · {event.address ?? 'Unknown address'} ·{' '}
          <time dateTime={event.occurred_at}>{formatEventTime(event.occurred_at)}</time>
        </span>
      </div>
    </li>
  );
}

/**
 * An account's security events, newest first, each with its device, address and time, and "Show
 * more" while older pages exist. The owner's Security card and the admin's Users tab both use it,
 * each with its own query.
 */
export function SecurityEventList({ label, activity }: { label: string; activity: SecurityActivityQuery }) {
  if (activity.isPending) return <p className="muted small">Loading...</p>;
  if (activity.isError && !activity.data) {
    return <p className="muted small">Security activity could not be loaded</p>;
  }
  const events = eventsOfPages(activity.data?.pages);
  if (events.length === 0) return <p className="muted small">No security activity yet</p>;
  return (
    <>
      <ul className="security-list" aria-label={label}>
        {events.map((event) => (
          <EventItem key={event.id} event={event} />
        ))}
      </ul>
      {activity.hasNextPage && (
        <button
          type="button"
          className="button button--outline button--small"
          disabled={activity.isFetchingNextPage}
          onClick={() => void activity.fetchNextPage()}
        >
          {activity.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </button>
      )}
    </>
  );
}
