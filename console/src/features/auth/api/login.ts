import { useMutation } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type LoginRequest = Schemas['LoginRequest'];
type LoginResponse = Schemas['LoginResponse'];
import { api } from '../../../lib/api-client';

export function login(body: LoginRequest): Promise<LoginResponse> {
  return api.post('/api/auth/login', body, { auth: false });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
