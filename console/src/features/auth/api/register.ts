import { useMutation } from '@tanstack/react-query';
import type { RegisterRequest } from '@updown/schemas/api';
import { api } from '../../../lib/api-client';

export function register(body: RegisterRequest): Promise<unknown> {
  return api.post<unknown>('/api/auth/register', body, { auth: false });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
