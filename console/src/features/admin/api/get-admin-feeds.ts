import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

export type AdminFeedList = Schemas['AdminFeedList'];
export type AdminPairFeed = Schemas['AdminPairFeed'];
export type FeedHealth = Schemas['FeedHealth'];

/** A feed is stale after 5 s without a tick: polling every 2 s shows it within a poll or two. */
export const FEEDS_POLL_MS = 2000;

/** Every pair's feed and reference feed, with their health as price-ingest last reported it. */
export function getAdminFeeds(): Promise<AdminFeedList> {
  return api.get('/api/admin/feeds');
}

export function adminFeedsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'feeds'], queryFn: getAdminFeeds });
}

/** Polled while the Feeds tab is open (and the page visible): the tab is a live monitor. */
export function useAdminFeeds() {
  return useQuery({ ...adminFeedsQueryOptions(), refetchInterval: FEEDS_POLL_MS });
}
