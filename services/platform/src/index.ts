export { startPlatform, type PlatformOptions, type RunningPlatform } from './platform';
export { loadPlatformConfig, platformConfigSpec, type PlatformConfig } from './config';
export {
  gatewayStandaloneConfigSpec,
  loadGatewayStandaloneConfig,
  type GatewayStandaloneConfig,
} from './gateway-standalone.config';
