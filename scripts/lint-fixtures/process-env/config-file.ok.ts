// lint-as: services/runtime/src/config/lint-fixture.config.ts
export function pgUser(): string | undefined {
  return process.env.PGUSER;
}
