import { ConfigError } from './config/env';
import { EmbeddedPostgresError } from './db/embedded-access';

/**
 * What a command prints when it cannot start or run. An operating error whose message already
 * says the cause and the fix (a bad variable, a database that cannot start) is printed alone: a
 * stack trace under it would only bury the sentence. Anything else is a programmer error, and its
 * stack is what whoever fixes it needs.
 */
export function failureText(error: unknown): string {
  if (error instanceof ConfigError || error instanceof EmbeddedPostgresError) return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
