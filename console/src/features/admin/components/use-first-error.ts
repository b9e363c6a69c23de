import { useState } from 'react';

/**
 * The error a polled list started failing with, kept until it loads again: each failed poll is a
 * new error object, and the admin should be told once, not every two seconds.
 */
export function useFirstError(error: Error | null): Error | null {
  const [first, setFirst] = useState<Error | null>(null);
  // Adjusted while rendering rather than in an effect, so the toast's effect sees it at once.
  if (error !== null && first === null) setFirst(error);
  if (error === null && first !== null) setFirst(null);
  return first;
}
