// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-properties
export function elapsed(startMs: number): number {
  return performance.now() - startMs;
}
