// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-globals
export function tradeId(): string {
  return crypto.randomUUID();
}
