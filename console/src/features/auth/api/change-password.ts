import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { BodyOf } from '../../../lib/api-schema';

export type ChangePasswordInput = BodyOf<'/api/auth/password', 'post'>;

/**
 * Changes the signed-in user's password. The server ends every other session of the user; this one
 * continues (should its access token be refused, the API client renews it from the session cookie).
 */
export function changePassword(body: ChangePasswordInput) {
  return api.post('/api/auth/password', body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
