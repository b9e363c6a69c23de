/**
 * Google sign-in without Google's script (the CSP allows only our own): the browser goes to
 * Google's OAuth page and comes back to /auth with `#id_token=…` in the hash, which the auth page
 * posts to the gateway as `session_token`. The OAuth client id comes from `VITE_GOOGLE_CLIENT_ID`
 * at build time; without it Google sign-in is off, as it is on a gateway without `GOOGLE_CLIENT_ID`.
 */
const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';

export function googleClientId(): string | undefined {
  const id = import.meta.env.VITE_GOOGLE_CLIENT_ID as string | undefined;
  return id ? id : undefined;
}

export function googleSignInUrl(clientId: string, origin: string, nonce: string): string {
  const params = new URLSearchParams({
    client_id: clientId,
    redirect_uri: `${origin}/auth`,
    response_type: 'id_token',
    scope: 'openid email profile',
    nonce,
    prompt: 'select_account',
  });
  return `${GOOGLE_AUTHORIZE_URL}?${params.toString()}`;
}

/** The ID token in a `#id_token=…&…` hash, if the page was opened by Google's redirect. */
export function idTokenFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return params.get('id_token') ?? params.get('session_token');
}
