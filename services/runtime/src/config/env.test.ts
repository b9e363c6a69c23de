import { describe, expect, it } from 'vitest';
import { ConfigError, env, readEnv } from './env';
import { loadRuntimeConfig } from './runtime-config';

describe('readEnv', () => {
  const spec = {
    PORT: env.port(8080),
    BUS: env.oneOf(['memory', 'kafka'], 'memory'),
    VERBOSE: env.bool(false),
    BROKERS: env.list(['a:1']),
  };

  it('applies defaults for unset and blank variables', () => {
    expect(readEnv(spec, { PORT: '  ' })).toEqual({
      PORT: 8080,
      BUS: 'memory',
      VERBOSE: false,
      BROKERS: ['a:1'],
    });
  });

  it('parses set variables', () => {
    expect(readEnv(spec, { PORT: '9000', BUS: 'kafka', VERBOSE: 'yes', BROKERS: 'x:1, y:2' })).toEqual({
      PORT: 9000,
      BUS: 'kafka',
      VERBOSE: true,
      BROKERS: ['x:1', 'y:2'],
    });
  });

  it('names every bad variable in one error', () => {
    let caught: unknown;
    try {
      readEnv(spec, { PORT: 'eighty', BUS: 'rabbit' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).toContain('PORT must be an integer, got "eighty"');
    expect(message).toContain('BUS must be one of memory, kafka, got "rabbit"');
    expect((caught as ConfigError).problems).toHaveLength(2);
  });

  it('rejects out-of-range ports', () => {
    expect(() => readEnv(spec, { PORT: '70000' })).toThrow(/PORT must be at most 65535/);
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(readEnv(spec, {}))).toBe(true);
  });
});

describe('runtime config', () => {
  it('rejects a DATABASE_URL that is not a PostgreSQL URL, without echoing its password', () => {
    expect(() => loadRuntimeConfig({ DATABASE_URL: 'mysql://u:secret@h/db' })).toThrow(
      /DATABASE_URL must use postgres/,
    );
    expect(() => loadRuntimeConfig({ DATABASE_URL: 'not a url:secret@' })).toThrow(
      /DATABASE_URL must be a URL/,
    );
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadRuntimeConfig({ DATABASE_URL: 'postgres://127.0.0.1:5432/test' }).DATABASE_URL).toBe(
      'postgres://127.0.0.1:5432/test',
    );
  });
});
