export {
  buildApp,
  PLACEHOLDER_DIR,
  registeredRoutes,
  type GatewayDeps,
  type GatewayPlugin,
  type RegisteredRoute,
} from './app';
export { gatewayPlugins, type GatewayFeatureDeps } from './features';
export { gatewayConfigSpec, loadGatewayConfig, metricsConfigProblems, type GatewayConfig } from './config';
export { ERROR_STATUS, codeForStatus, statusForCode, type KnownErrorCode } from './http/error-status';
export { toErrorAnswer } from './http/error-handler';
export { databaseReadiness, type Readiness, type ReadinessResult } from './http/health';
export type { GatewayInstance } from './http/instance';
export { errorResponses } from './http/responses';
export { CONTENT_SECURITY_POLICY } from './http/security';
export { startGateway, type GatewayServerDeps, type RunningGateway } from './server';
export {
  AUTH_PLUGIN_NAME,
  createAuthPlugin,
  accountOpener,
  optionalUser,
  type AuthHook,
  type AuthPluginConfig,
  type AuthPluginDeps,
} from './auth/index';
export { createMarketPlugin, type MarketPluginDeps, type MarketTickSubscriber } from './market/market.plugin';
export {
  MARKET_PLUGIN_DEFAULTS,
  marketConfigSpec,
  marketPluginOptions,
  type MarketConfig,
  type MarketPluginOptions,
} from './market/market.config';
export { createTradesPlugin, type EvidenceLoader, type TradesPluginDeps } from './trades/trades.routes';
export { createIdentityPlugin, type IdentityPluginDeps } from './identity/identity.routes';
export { identityConfigSpec, pdfInspectionLimits, type IdentityConfig } from './identity/identity.config';
export { disputeLimits, disputesConfigSpec, type DisputesConfig } from './receipts/disputes.config';
export { createWalletPlugin, type WalletPluginDeps } from './wallet/wallet.routes';
export { createAdminPlugin, type AdminPluginDeps } from './admin/admin.routes';
export { createLeaderboardPlugin, type LeaderboardPluginDeps } from './leaderboard/leaderboard.routes';
