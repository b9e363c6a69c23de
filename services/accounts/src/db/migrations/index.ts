import type { MigrationSet } from '@updown/runtime';
import * as users from './0020_users';
import * as refreshTokens from './0021_refresh_tokens';
import * as loginFailures from './0022_login_failures';
import * as identity from './0023_identity';
import * as signInThrottle from './0024_sign_in_throttle';
import * as sessionEndings from './0025_session_endings';
import * as sessionsAndSecurityActivity from './0026_sessions_and_security_activity';
import * as adminAudit from './0040a_admin_audit';

/** The accounts' tables: users, sessions, sign-in failures and known addresses, identity verification and the admin audit trail. */
export const accountsMigrations: MigrationSet = {
  owner: 'accounts',
  migrations: {
    '0020_users': users,
    '0021_refresh_tokens': refreshTokens,
    '0022_login_failures': loginFailures,
    '0023_identity': identity,
    '0024_sign_in_throttle': signInThrottle,
    '0025_session_endings': sessionEndings,
    '0026_sessions_and_security_activity': sessionsAndSecurityActivity,
    '0040a_admin_audit': adminAudit,
  },
};
