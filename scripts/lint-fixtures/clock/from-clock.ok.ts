// lint-as: services/wallet/src/payments/lint-fixture.ts
export function expiresAt(clock: { now(): number }, ttlMs: number): number {
  return clock.nowMs() + ttlMs;
}

export function waitDeadline(waitMs: number): number {
  return performance.now() + waitMs;
}
