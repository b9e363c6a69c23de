export {
  createAuthPlugin,
  AUTH_PLUGIN_NAME,
  type AuthPluginConfig,
  type AuthPluginDeps,
} from './auth.plugin';
export { optionalUser, bearerToken, type AuthHook } from './auth.hooks';
export { accountOpener, openAccount } from './open-account.handler';
export { authConfigSpec, GOOGLE_JWKS_DEFAULT, JWT_SECRET_LENGTH_MIN } from './auth.config';
