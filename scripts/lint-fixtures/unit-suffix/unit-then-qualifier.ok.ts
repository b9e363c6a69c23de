// lint-as: services/order/src/trades/lint-fixture.ts
export const RETRY_WAIT_MS_MAX = 5_000;
export const limits = { stakeCentsMax: 100_000, retryDelayMsMin: 100 };
