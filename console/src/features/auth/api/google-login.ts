import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { COOKIE_SESSION_HEADERS } from '../../../lib/session-cookie';

type GoogleLoginRequest = Schemas['GoogleLoginRequest'];
type LoginResponse = Schemas['LoginResponse'];

export function googleLogin(body: GoogleLoginRequest): Promise<LoginResponse> {
  return api.post('/api/auth/google-login', body, { auth: false, headers: { ...COOKIE_SESSION_HEADERS } });
}

export function useGoogleLogin() {
  return useMutation({ mutationFn: googleLogin });
}
