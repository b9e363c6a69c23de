import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { COOKIE_SESSION_HEADERS } from '../../../lib/session-cookie';

type LoginRequest = Schemas['LoginRequest'];
type LoginResponse = Schemas['LoginResponse'];

/**
 * A password sign-in. The refresh token comes back as the session cookie, the access token in the
 * body. After too many failed sign-ins on the account the server answers 429
 * `EXTRA_VERIFICATION_REQUIRED`, and the same sign-in sent again with `totp_code` (the
 * authenticator's current code) completes.
 */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return api.post('/api/auth/login', body, { auth: false, headers: { ...COOKIE_SESSION_HEADERS } });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
