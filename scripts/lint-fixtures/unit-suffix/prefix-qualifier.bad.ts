// lint-as: bench/lib/lint-fixture.ts
// expect: id-match
export function capped(options: { maxStakeCents: number }): number {
  return options.maxStakeCents;
}
