export { ErrorResponse } from './errors';
export { HealthResponse, NotReadyResponse, ReadinessChecks, ReadinessResponse } from './health';
export { RequestBody } from './request-body';
