import { useMutation } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';

type RegisterRequest = Schemas['RegisterRequest'];
import { api } from '../../../lib/api-client';

export function register(body: RegisterRequest): Promise<Schemas['User']> {
  return api.post('/api/auth/register', body, { auth: false });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
