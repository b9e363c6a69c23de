// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-properties
export function expiry(durationMs: number): number {
  return Date.now() + durationMs;
}
