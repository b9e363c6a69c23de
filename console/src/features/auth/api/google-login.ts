import { useMutation } from '@tanstack/react-query';
import type { GoogleLoginRequest, LoginResponse } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

export function googleLogin(body: GoogleLoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/api/auth/google-login', body, { auth: false });
}

export function useGoogleLogin() {
  return useMutation({ mutationFn: googleLogin });
}
