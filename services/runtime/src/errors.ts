/**
 * The base of every expected, named failure (insufficient balance, not found, conflict...).
 * Services throw these; only the HTTP edge maps `code` to a status, through one table.
 * `status` overrides that table for the rare error whose status depends on context.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
