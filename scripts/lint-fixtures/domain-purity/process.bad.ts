// lint-as: services/order/src/trades/lint-fixture.domain.ts
// expect: no-restricted-globals
export function pid(): number {
  return process.pid;
}
