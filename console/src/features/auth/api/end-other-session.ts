import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshSecurityViews } from './security-views';

/**
 * "End session" on one of the user's other devices: the server ends that session and its access
 * tokens at once, so the device is signed out at its next request. A session that is not the
 * user's, or has ended already, is a 404 `SESSION_NOT_FOUND`. (This device's own row signs out
 * through the session's logout instead, which also clears the cookies.)
 */
export function endOtherSession(sessionId: string) {
  return api.delete('/api/auth/sessions/{id}', { params: { id: sessionId } });
}

/** Either way the list may have changed (a 404 means the session is gone), so both reload. */
export function useEndOtherSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSession,
    onSettled: () => refreshSecurityViews(queryClient),
  });
}
