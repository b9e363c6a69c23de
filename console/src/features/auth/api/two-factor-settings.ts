import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BodyOf, Schemas } from '../../../lib/api-schema';
import { api } from '../../../lib/api-client';
import { meQueryOptions } from '../../../lib/session/get-me';
import { refreshSecurityViews } from './security-views';

export type TwoFactorSetup = Schemas['TwoFactorSetup'];
/** A code, and the password when this request is its own step-up. */
export type TwoFactorChange = BodyOf<'/api/2fa/enable', 'post'>;

/**
 * A new secret with its otpauth URL and QR code; two-factor stays off until a code confirms it.
 * Turning two-factor on is a sensitive action: a session that stole a refresh token must not put
 * its own authenticator on the account. Without `password` the session's own step-up must be from
 * the last 5 minutes (a fresh sign-in is one, which is the only step-up an account made by Google
 * sign-in can give, having no password it knows); else 403 `STEP_UP_REQUIRED`. With `password`
 * this request is the step-up. Either covers the confirming code for 5 minutes.
 */
export function startTwoFactorSetup(password?: string): Promise<TwoFactorSetup> {
  return api.post('/api/2fa/setup', password === undefined ? undefined : { password });
}

/**
 * Confirms the setup with the first code. `password` only when the setup's step-up has run out
 * (the server said 403 `STEP_UP_REQUIRED`).
 */
export function enableTwoFactor(change: TwoFactorChange): Promise<unknown> {
  return api.post('/api/2fa/enable', change);
}

/** Turns two-factor off: the password and a current code, which together are the step-up. */
export function disableTwoFactor(change: TwoFactorChange): Promise<unknown> {
  return api.post('/api/2fa/disable', change);
}

export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: (password: string | undefined) => startTwoFactorSetup(password) });
}

/**
 * Turning two-factor on or off changes the signed-in user, so the session reloads it, and adds to
 * the security activity.
 */
export function useSetTwoFactor(enabled: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: TwoFactorChange) => (enabled ? enableTwoFactor(change) : disableTwoFactor(change)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
        refreshSecurityViews(queryClient),
      ]),
  });
}
