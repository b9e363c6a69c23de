import { createContext, useContext } from 'react';
import type { User } from './get-me';

export interface Session {
  user: User | null;
  /** True while a stored token is being turned into a user. */
  loading: boolean;
  isAdmin: boolean;
  /** Stores a fresh token pair and loads the user they belong to. */
  signIn(accessToken: string, refreshToken: string): Promise<void>;
  /** Ends the session on the server (errors only logged) and forgets it here. */
  logout(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}
