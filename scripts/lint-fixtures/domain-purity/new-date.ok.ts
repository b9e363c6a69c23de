// lint-as: services/order/src/trades/lint-fixture.domain.ts
export function expiry(nowMs: number, durationMs: number): Date {
  return new Date(nowMs + durationMs);
}
