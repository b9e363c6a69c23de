export { memoryBus, metricValue, waitFor } from '@updown/runtime/testing';
