export { buildApp, PLACEHOLDER_DIR, type GatewayDeps, type GatewayPlugin } from './app';
export { gatewayConfigSpec, loadGatewayConfig, type GatewayConfig } from './config';
export { ERROR_STATUS, codeForStatus, statusForCode, type KnownErrorCode } from './http/error-status';
export { toErrorAnswer } from './http/error-handler';
export { databaseReadiness, type Readiness, type ReadinessResult } from './http/health';
export type { GatewayInstance } from './http/instance';
export { errorResponses } from './http/responses';
export { CONTENT_SECURITY_POLICY } from './http/security';
export { startGateway, type GatewayServerDeps, type RunningGateway } from './server';
