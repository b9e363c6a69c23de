import { useMutation } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';

/** Checks a 6-digit code; the Bearer is the temporary token the password login returned. */
export function verifyTwoFactor(input: { code: string; tempToken: string }): Promise<Schemas['TokenPair']> {
  return api.post('/api/2fa/verify', { token: input.code }, { token: input.tempToken });
}

export function useVerifyTwoFactor() {
  return useMutation({ mutationFn: verifyTwoFactor });
}
