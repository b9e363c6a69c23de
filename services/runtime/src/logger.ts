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

/** Query parameters whose values are credentials: `refresh_token`, `token`, `access_token`, `api_key`, ... */
const SECRET_QUERY_KEY = /token|password|secret|api[-_]?key|session|code|signature/i;
const CENSOR = '[redacted]';

/**
 * A URL (path and query) fit for a log line: the value of every query parameter that can carry
 * a credential is replaced by `[redacted]`; the path and other parameters stay, so the line is
 * still useful. Clients sometimes put tokens in URLs (the spec's `?refresh_token=`), and a log
 * line is read by more people than the token was meant for.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const fragment = url.indexOf('#', start);
  const query = url.slice(start + 1, fragment === -1 ? undefined : fragment);
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    const rawKey = equals === -1 ? part : part.slice(0, equals);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judge the key as written.
    }
    return equals !== -1 && SECRET_QUERY_KEY.test(key) ? `${rawKey}=${CENSOR}` : part;
  });
  return `${url.slice(0, start)}?${parts.join('&')}`;
}

/** How a request appears when a log call passes one as `req`: never its headers, its URL redacted. */
function requestSerializer(req: unknown): unknown {
  if (typeof req !== 'object' || req === null) return req;
  const { method, url, id } = req as { method?: unknown; url?: unknown; id?: unknown };
  return { id, method, url: typeof url === 'string' ? redactUrl(url) : url };
}

export function createLogger(options: {
  level: string;
  name: string;
  destination?: DestinationStream;
}): Logger {
  const config: LoggerOptions = {
    level: options.level,
    name: options.name,
    base: { service: options.name },
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    serializers: { req: requestSerializer },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
