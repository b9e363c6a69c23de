export { fakeConsoleDir, memoryLogger } from './test-app';
export { openAccount } from '../auth/open-account.handler';
