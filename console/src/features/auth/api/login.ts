import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

export function login(body: LoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/api/auth/login', body, { auth: false });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
