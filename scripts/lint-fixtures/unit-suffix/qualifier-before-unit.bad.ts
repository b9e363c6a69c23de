// lint-as: services/order/src/trades/lint-fixture.ts
// expect: id-match
export const RETRY_WAIT_MAX_MS = 5_000;
