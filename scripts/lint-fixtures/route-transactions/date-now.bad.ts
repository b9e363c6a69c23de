// lint-as: services/gateway/src/admin/lint-fixture.routes.ts
// expect: no-restricted-syntax
export function generatedAt(): string {
  return new Date(Date.now()).toISOString();
}
