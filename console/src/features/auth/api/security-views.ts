import type { QueryClient } from '@tanstack/react-query';
import { securityActivityQueryOptions } from './get-security-activity';
import { sessionsQueryOptions } from './get-sessions';

/**
 * Reloads what the Security card shows of the account after a change the server records there: a
 * session ended, two-factor turned on or off, the password changed (which also ends the other
 * sessions).
 */
export function refreshSecurityViews(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: securityActivityQueryOptions().queryKey }),
  ]);
}
