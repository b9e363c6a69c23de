export { createTestDatabase, type TestDatabase } from './test-database';
export { metricValue } from './metric-value';
export { waitFor } from '../bus/testing/wait-for';
