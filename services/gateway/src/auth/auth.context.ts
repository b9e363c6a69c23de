import type { AccountsContext } from '@updown/accounts';
import type { CookiePolicy } from './session-cookies';

/** The accounts commands' context, plus what only the edge needs: the cookie form's attributes. */
export interface AuthContext extends AccountsContext {
  readonly cookiePolicy: CookiePolicy;
}
