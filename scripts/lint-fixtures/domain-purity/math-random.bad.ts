// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-properties
export function jitter(): number {
  return Math.random();
}
