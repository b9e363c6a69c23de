import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';

/** The platform's public signing keys (JWKS, RFC 7517; Ed25519 keys as OKP). */
export type KeySet = Schemas['KeySet'];

/** Keys rotate rarely; a receipt verified twice in a few minutes need not fetch them twice. */
const KEY_SET_STALE_MS = 5 * 60_000;

/** Public, without the session: anyone holding a receipt can check it against the published keys. */
export function getKeySet(): Promise<KeySet> {
  return api.get('/.well-known/updown-keys.json', { auth: false });
}

export function keySetQueryOptions() {
  return queryOptions({ queryKey: ['receipts', 'key-set'], queryFn: getKeySet, staleTime: KEY_SET_STALE_MS });
}

export function useKeySet(enabled: boolean) {
  return useQuery({ ...keySetQueryOptions(), enabled });
}
