import { createContext, useContext } from 'react';
import type { User } from './get-me';

export interface Session {
  user: User | null;
  /** True while a stored token is being turned into a user. */
  loading: boolean;
  isAdmin: boolean;
  /**
   * Stores a fresh access token and loads the user it belongs to. The refresh token came as an
   * HttpOnly cookie with the same answer and never passes through here.
   */
  signIn(accessToken: string): Promise<void>;
  /** Ends the session on the server (errors only logged) and forgets it here. */
  logout(): Promise<void>;
  /**
   * Ends every session of the user on the server, this one included, then forgets it here. Throws
   * when the server did not confirm, and then keeps the session: the other devices are still in.
   */
  logoutEverywhere(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}
