export { createTestDatabase, type TestDatabase } from './test-database';
export { metricValue } from './metric-value';
export { waitFor } from '../bus/testing/wait-for';
export { startMokapi, mokapiIsolation, type MokapiBroker } from '../bus/testing/mokapi';
export { dockerEngineAnswers } from '../bus/testing/docker';
export { memoryBus } from './memory-bus';
export { someoneWaitsForALock } from './lock-wait';
