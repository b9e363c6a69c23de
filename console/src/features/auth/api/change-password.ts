import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { BodyOf } from '../../../lib/api-schema';
import { refreshSecurityViews } from './security-views';

export type ChangePasswordInput = BodyOf<'/api/auth/password', 'post'>;

/**
 * Changes the signed-in user's password. The current password (and, with two-factor on,
 * `totp_code`) is the request's step-up. The server ends every other session of the user; this one
 * continues (should its access token be refused, the API client renews it from the session cookie).
 */
export function changePassword(body: ChangePasswordInput) {
  return api.post('/api/auth/password', body);
}

/** The other sessions end and the change is recorded, so the Security card's lists reload. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePassword, onSuccess: () => refreshSecurityViews(queryClient) });
}
