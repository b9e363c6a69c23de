import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@updown/runtime';
import { GatewayLogController, genReqId, requestLogger } from './request-context';

/**
 * A request's logger writes the same lines with the request id bound, but makes its pino child
 * only when it writes one: at warn a request that answers well makes none.
 */

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appLogging(level: 'info' | 'warn') {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level,
    name: 'gateway',
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new GatewayLogController(),
    genReqId,
    childLoggerFactory: requestLogger,
  });
  apps.push(app);
  app.get('/ok', async (request) => {
    request.log.info({ step: 'handler' }, 'handling');
    return { ok: true };
  });
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  await app.ready();
  const child = vi.spyOn(logger, 'child');
  return { app, lines, child };
}

describe('the request logger', () => {
  it('writes each line with the request id, as a pino child would', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject({ url: '/ok', headers: { 'x-request-id': 'req-1' } });
    const handling = lines.find((line) => line.msg === 'handling');
    const completed = lines.find((line) => line.msg === 'request completed');
    expect(handling).toMatchObject({ reqId: 'req-1', step: 'handler', level: 30 });
    expect(completed).toMatchObject({ reqId: 'req-1', statusCode: 200, route: '/ok' });
  });

  it('makes no child for a request that writes nothing, and one for a request that fails', async () => {
    const { app, lines, child } = await appLogging('warn');
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/ok' })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    await app.inject({ url: '/boom', headers: { 'x-request-id': 'req-2' } });
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.some((line) => line.reqId === 'req-2' && line.level === 50)).toBe(true);
  });

  it('reports the level of the logger it stands for', async () => {
    const parent = createLogger({ level: 'warn', name: 'gateway' }) as FastifyBaseLogger;
    expect(requestLogger(parent, { reqId: 'r' }, {}).level).toBe('warn');
    expect(requestLogger(parent, { reqId: 'r' }, { level: 'debug' }).level).toBe('debug');
  });
});
