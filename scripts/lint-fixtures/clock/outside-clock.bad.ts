// lint-as: services/wallet/src/payments/lint-fixture.ts
// expect: no-restricted-syntax
export function expiresAt(ttlMs: number): number {
  return Date.now() + ttlMs;
}
