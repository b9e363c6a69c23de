import { ConfigError } from './config/env';
import { EmbeddedPostgresError } from './db/embedded-access';

/**
 * What a command prints when it cannot start or run. An operating error whose message already
 * says the cause and the fix (a bad variable, a database that cannot start) is printed alone: a
 * stack trace under it would only bury the sentence. Anything else is a programmer error, and its
 * stack is what whoever fixes it needs.
 */
export function failureText(error: unknown): string {
  if (isOperatingError(error)) return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}

/** An error whose message is the whole story for whoever runs the command. */
export function isOperatingError(error: unknown): error is ConfigError | EmbeddedPostgresError {
  return error instanceof ConfigError || error instanceof EmbeddedPostgresError;
}

/** The log fields for a failure: the sentence alone for an operating error, the error with its stack otherwise. */
export function failureFields(error: unknown): { detail: string } | { err: unknown } {
  return isOperatingError(error) ? { detail: error.message } : { err: error };
}
