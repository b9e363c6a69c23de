import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/session/get-me';

export type TwoFactorSetup = Schemas['TwoFactorSetup'];

/** A new secret with its otpauth URL and QR code; two-factor stays off until a code confirms it. */
export function startTwoFactorSetup(): Promise<TwoFactorSetup> {
  return api.post('/api/2fa/setup');
}

export function enableTwoFactor(code: string): Promise<unknown> {
  return api.post('/api/2fa/enable', { token: code });
}

export function disableTwoFactor(code: string): Promise<unknown> {
  return api.post('/api/2fa/disable', { token: code });
}

export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: startTwoFactorSetup });
}

/** Turning two-factor on or off changes the signed-in user, so the session reloads it. */
export function useSetTwoFactor(enabled: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => (enabled ? enableTwoFactor(code) : disableTwoFactor(code)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
  });
}
