export {
  createAuthPlugin,
  AUTH_PLUGIN_NAME,
  type AuthPluginConfig,
  type AuthPluginDeps,
} from './auth.plugin';
export { optionalUser, bearerToken, type AuthHook } from './auth.hooks';
export {
  ensureAdminFromEnv,
  createOrPromoteAdmin,
  type AdminCommand,
  type AdminCommandResult,
  type EnsureAdminResult,
} from './admin-bootstrap';
export { authConfigSpec, GOOGLE_JWKS_DEFAULT, JWT_SECRET_LENGTH_MIN } from './auth.config';
