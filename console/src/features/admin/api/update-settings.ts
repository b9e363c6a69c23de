import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type PlatformSettings = Schemas['PlatformSettings'];
import { api } from '../../../lib/api-client';
import { adminPairsQueryOptions } from './get-admin-pairs';
import { settingsQueryOptions } from './get-settings';

/** The console always sends both settings, so what is saved is exactly what the form shows. */
export function updateSettings(body: PlatformSettings): Promise<PlatformSettings> {
  return api.post('/api/admin/settings', body);
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsQueryOptions().queryKey, saved);
      // Every pair follows the platform payout, so the pair rows change with it.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: settingsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: adminPairsQueryOptions().queryKey }),
      ]);
    },
  });
}
