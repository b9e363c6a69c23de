import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths that must never reach a log line. Tokens and passwords are redacted wherever they appear
 * in a logged object, including request headers and bodies.
 */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'access_token',
  '*.access_token',
  'refresh_token',
  '*.refresh_token',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'DATABASE_URL',
  '*.DATABASE_URL',
  'JWT_SECRET',
  '*.JWT_SECRET',
  'ADMIN_PASSWORD',
  '*.ADMIN_PASSWORD',
  'session_token',
  '*.session_token',
];

export function createLogger(options: {
  level: string;
  name: string;
  destination?: DestinationStream;
}): Logger {
  const config: LoggerOptions = {
    level: options.level,
    name: options.name,
    base: { service: options.name },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
