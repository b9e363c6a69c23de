// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-syntax
export function expiry(durationMs: number): number {
  return new Date().getTime() + durationMs;
}
