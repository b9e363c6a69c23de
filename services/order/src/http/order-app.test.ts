import { afterEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createLogger, createMetricsRegistry, type Database } from '@updown/runtime';
import { buildOrderApp } from './order-app';

describe('the order service app', () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  afterEach(() => {
    process.off('warning', onWarning);
    warnings.length = 0;
  });

  it('starts without a deprecation warning and logs no line per request', async () => {
    process.on('warning', onWarning);
    const lines: string[] = [];
    const logger = createLogger({
      level: 'trace',
      name: 'order',
      destination: { write: (line) => lines.push(line) },
    });
    const app = buildOrderApp({
      placeTrade: () => Promise.reject(new Error('not called')),
      db: {} as Kysely<Database>,
      registry: createMetricsRegistry({ service: 'order' }),
      logger,
      serviceToken: 'a-service-token-of-some-length',
    });
    await app.ready();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    const refused = await app.inject({ method: 'POST', url: '/internal/trades/place', payload: {} });
    expect(refused.statusCode).toBe(401);
    await app.close();
    // process.emitWarning delivers on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((warning) => (warning as { code?: string }).code ?? warning.message)).toEqual([]);
    expect(lines.filter((line) => /incoming request|request completed/.test(line))).toEqual([]);
  });
});
