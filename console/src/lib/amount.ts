/** Parses an amount field: a positive number, or null for empty, zero, negative or garbage. */
export function parseAmount(input: string): number | null {
  if (input.trim() === '') return null;
  const amount = Number(input);
  return Number.isFinite(amount) && amount > 0 ? amount : null;
}
