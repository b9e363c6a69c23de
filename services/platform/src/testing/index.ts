export type { RunningPlatform } from '../platform';
export {
  jumpPastExpiry,
  jumpToExitTick,
  startInProcessPlatform,
  waitForStoredTick,
  type InProcessOptions,
  type InProcessPlatform,
} from './in-process';
export {
  PLATFORM_SCRIPT,
  startPlatformProcess,
  type PlatformProcess,
  type PlatformProcessOptions,
} from './platform-process';
export {
  mokapiDocument,
  REPO_ROOT,
  SERVICE_SCRIPTS,
  startServiceProcess,
  type ServiceName,
  type ServiceProcess,
} from './service-process';
export { TEST_ADMIN, testPlatformEnv, type TestPlatformEnv, type TestPlatformEnvOptions } from './test-env';
export * from './timing';
