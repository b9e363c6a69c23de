import { useMutation } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type GoogleLoginRequest = Schemas['GoogleLoginRequest'];
type LoginResponse = Schemas['LoginResponse'];
import { api } from '../../../lib/api-client';

export function googleLogin(body: GoogleLoginRequest): Promise<LoginResponse> {
  return api.post('/api/auth/google-login', body, { auth: false });
}

export function useGoogleLogin() {
  return useMutation({ mutationFn: googleLogin });
}
