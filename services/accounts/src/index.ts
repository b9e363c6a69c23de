// The tables' kysely types: importing the entry point adds them to the runtime's `Database`.
export type * from './db/tables';
export { accountsMigrations } from './db/migrations/index';

// Users, sessions and refresh families, two-factor, the sign-in throttle and security activity.
export type { AccountsContext, AuthPolicy, OpenAccount, TokenSigner } from './auth/accounts.context';
export { checkAccountDetails, registerUser, type AccountDetails } from './auth/accounts.handler';
export {
  ADMIN_DEFAULT_NAME,
  createOrPromoteAdmin,
  ensureAdminFromEnv,
  type AdminCommand,
  type AdminCommandResult,
  type AdminTools,
  type EnsureAdminResult,
} from './auth/admin-bootstrap';
export * from './auth/auth.domain';
export * from './auth/auth.errors';
export { bindingOf, clientSeen, deviceName, type ClientInfo } from './auth/client';
export { csrfKeyFrom, csrfMatches, csrfToken } from './auth/csrf';
export { EndedSessions, type EndedSessionsOptions } from './auth/ended-sessions';
export { googleLogin } from './auth/google-login.handler';
export { createGoogleVerifier, GOOGLE_ISSUERS, type GoogleVerifier } from './auth/google-verifier';
export { passwordLogin } from './auth/login.handler';
export { changePassword } from './auth/password-change.handler';
export { DEFAULT_SCRYPT, PasswordHasher, type ScryptParams } from './auth/password';
export * from './auth/security.domain';
export { securityMetrics, type SecurityMetrics } from './auth/security.metrics';
export * from './auth/security.repository';
export * from './auth/sessions.handler';
export * from './auth/sessions.repository';
export * from './auth/sign-in-throttle.domain';
export * from './auth/sign-in-throttle.repository';
export * from './auth/sign-in-throttle';
export * from './auth/step-up.handler';
export { hashRefreshToken, newRefreshToken } from './auth/tokens';
export { matchTotp, spendCode, spendSignInCode } from './auth/totp-codes';
export * from './auth/two-factor.handler';
export * from './auth/users.repository';

// Identity verification: documents, submissions, their checks, retention and metrics.
export * from './identity/document-inspection';
export * from './identity/identity-retention';
export * from './identity/identity.domain';
export * from './identity/identity.handler';
export * from './identity/identity.metrics';
export * from './identity/identity.repository';
export { documentView, loadIdentity, verificationSummaries } from './identity/identity.view';
export * from './identity/pdf-inspection-queue';
export {
  decideVerification,
  VerificationNotFound,
  type VerificationDecision,
  type VerificationsContext,
  type Verified,
} from './identity/verification-decision.handler';

// The admin audit trail, which every owner's admin command writes in its own transaction.
export { writeAudit } from './audit/audit.repository';
