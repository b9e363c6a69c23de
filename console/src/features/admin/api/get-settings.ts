import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type PlatformSettings = Schemas['PlatformSettings'];
import { api } from '../../../lib/api-client';

export function getSettings(): Promise<PlatformSettings> {
  return api.get('/api/admin/settings');
}

export function settingsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'settings'], queryFn: getSettings });
}

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
