import type { Schemas } from '../../../lib/api-schema';
import { useAdminFeeds, type AdminPairFeed, type FeedHealth } from '../api/get-admin-feeds';
import { feedLabel } from './feed-draft';
import { useFirstError } from './use-first-error';
import { useLoadErrorToast } from './use-load-error-toast';

const STATUS: Record<Schemas['FeedStatus'], { label: string; className: string }> = {
  live: { label: 'Live', className: 'badge badge--up' },
  paused: { label: 'Feed paused', className: 'badge badge--pending' },
  diverged: { label: 'Feeds disagree', className: 'badge badge--down' },
};

const STATE: Record<FeedHealth['state'], { label: string; className: string }> = {
  live: { label: 'Live', className: 'badge badge--up' },
  stale: { label: 'Stale', className: 'badge badge--pending' },
  down: { label: 'Down', className: 'badge badge--down' },
};

/** `Last tick 0.4 s ago`, or that the feed has sent none since price-ingest started. */
export function formatTickAge(ageMs: number | null): string {
  return ageMs === null ? 'No tick yet' : `Last tick ${(ageMs / 1000).toFixed(1)} s ago`;
}

/** `12.3 / 50 bps`: how far the two feeds are apart now against how far they may be; `—` without a reference. */
export function formatDivergence(divergenceBps: number | null, spreadBps: number | null): string {
  if (spreadBps === null) return '—';
  const divergence = divergenceBps === null ? '—' : divergenceBps.toFixed(1);
  return `${divergence} / ${spreadBps} bps`;
}

/** One feed's health: what it follows, its state, how lively it is and what went wrong last. */
function FeedHealthCell({ feed }: { feed: FeedHealth | null }) {
  if (feed === null) return <td>—</td>;
  const state = STATE[feed.state];
  return (
    <td>
      <div className="admin-feed-health">
        <div className="admin-actions">
          <span className="admin-table__strong">{feedLabel(feed.provider, feed.source_symbol)}</span>
          <span className={state.className}>{state.label}</span>
        </div>
        <span className="muted small">
          {`${formatTickAge(feed.last_tick_age_ms)} · ${feed.ticks_per_sec.toFixed(1)} ticks/s`}
        </span>
        <span className="muted small">
          {`Reconnects ${feed.reconnects} · Gaps ${feed.gaps} · Malformed ${feed.malformed}`}
        </span>
        {feed.last_error && (
          <span className="text-down small admin-feed-health__error">{feed.last_error}</span>
        )}
      </div>
    </td>
  );
}

function FeedRow({ item }: { item: AdminPairFeed }) {
  const status = STATUS[item.feed_status];
  const beyondSpread =
    item.divergence_bps !== null && item.spread_bps !== null && item.divergence_bps > item.spread_bps;
  return (
    <tr>
      <td>
        <div className="admin-table__strong">{item.pair}</div>
        {!item.active && <div className="muted small">Disabled</div>}
      </td>
      <td>
        <span className={status.className}>{status.label}</span>
      </td>
      <FeedHealthCell feed={item.primary} />
      <FeedHealthCell feed={item.reference} />
      <td className={beyondSpread ? 'text-down' : undefined}>
        {formatDivergence(item.divergence_bps, item.spread_bps)}
      </td>
    </tr>
  );
}

/** Every pair's feed and reference feed with their health, polled while the tab is open. */
export function FeedsTab() {
  const feeds = useAdminFeeds();
  useLoadErrorToast(useFirstError(feeds.error), 'feeds');
  const rows = feeds.data?.items ?? [];

  return (
    <section className="card admin-card">
      <h2 className="card-title">Price Feeds</h2>
      {feeds.isPending ? (
        <p className="muted">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="muted">No trading pairs</p>
      ) : (
        <div className="table-scroll">
          <table className="table admin-table">
            <thead>
              <tr>
                <th>Pair</th>
                <th>Status</th>
                <th>Primary Feed</th>
                <th>Reference Feed</th>
                <th>Divergence / Spread</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((item) => (
                <FeedRow key={item.pair} item={item} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
