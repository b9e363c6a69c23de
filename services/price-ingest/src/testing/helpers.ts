export { metricValue, waitFor } from '@updown/runtime/testing';
