import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { Lifecycle } from './lifecycle';

const logger = createLogger({ level: 'silent', name: 'test' });

describe('Lifecycle', () => {
  it('runs steps once, in the order added, even when asked twice', async () => {
    const ran: string[] = [];
    const lifecycle = new Lifecycle(logger, 1_000);
    lifecycle.add('http', async () => void ran.push('http'));
    lifecycle.add('consumers', async () => void ran.push('consumers'));
    lifecycle.add('pool', async () => void ran.push('pool'));
    const [a, b] = await Promise.all([lifecycle.shutdown('test'), lifecycle.shutdown('again')]);
    expect([a, b]).toEqual([true, true]);
    expect(ran).toEqual(['http', 'consumers', 'pool']);
  });

  it('keeps going after a failing step and reports the shutdown as unclean', async () => {
    const ran: string[] = [];
    const lifecycle = new Lifecycle(logger, 1_000);
    lifecycle.add('broken', async () => {
      throw new Error('boom');
    });
    lifecycle.add('pool', async () => void ran.push('pool'));
    expect(await lifecycle.shutdown('test')).toBe(false);
    expect(ran).toEqual(['pool']);
  });

  it('gives up after the timeout when a step hangs', async () => {
    const lifecycle = new Lifecycle(logger, 50);
    lifecycle.add('stuck', () => new Promise(() => undefined));
    expect(await lifecycle.shutdown('test')).toBe(false);
  });
});
