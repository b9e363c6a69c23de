import { useMutation } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import { COOKIE_SESSION_HEADERS } from '../../../lib/session-cookie';

/**
 * Checks a 6-digit code; the Bearer is the temporary token the password login returned. The
 * refresh token comes back as the session cookie, the access token in the body.
 */
export function verifyTwoFactor(input: { code: string; tempToken: string }): Promise<Schemas['TokenPair']> {
  return api.post(
    '/api/2fa/verify',
    { token: input.code },
    { token: input.tempToken, headers: { ...COOKIE_SESSION_HEADERS } },
  );
}

export function useVerifyTwoFactor() {
  return useMutation({ mutationFn: verifyTwoFactor });
}
