import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlatformSettings } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

export function getSettings(): Promise<PlatformSettings> {
  return api.get<PlatformSettings>('/api/admin/settings');
}

export function settingsQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'settings'], queryFn: getSettings });
}

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
