import { logLevel, type logCreator } from 'kafkajs';
import type { Logger } from 'pino';

/** Routes kafkajs's own log lines into the service's pino logger, with kafkajs's fields as properties. */
export function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, logger: _logger, ...fields } = log;
      const entry = { ...fields, kafkaNamespace: namespace };
      switch (level) {
        case logLevel.ERROR:
        case logLevel.NOTHING:
          logger.error(entry, message);
          break;
        case logLevel.WARN:
          logger.warn(entry, message);
          break;
        case logLevel.INFO:
          logger.info(entry, message);
          break;
        default:
          logger.debug(entry, message);
      }
    };
}
