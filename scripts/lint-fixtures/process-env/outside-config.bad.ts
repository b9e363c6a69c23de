// lint-as: services/runtime/src/db/lint-fixture.ts
// expect: no-restricted-properties
export function pgUser(): string | undefined {
  return process.env.PGUSER;
}
