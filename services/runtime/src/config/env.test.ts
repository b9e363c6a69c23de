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
    for (const url of ['mysql://u:secret@h/db', 'not a url:secret@']) {
      expect(() => loadRuntimeConfig({ DATABASE_URL: url })).toThrow(
        /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/,
      );
      expect(() => loadRuntimeConfig({ DATABASE_URL: url })).not.toThrow(/secret/);
    }
  });

  it('accepts the multi-host URL of a primary and its standbys, and names what it cannot read', () => {
    const ha = 'postgres://127.0.0.1:6001,127.0.0.1:6002/postgres?target_session_attrs=read-write';
    expect(loadRuntimeConfig({ DATABASE_URL: ha }).DATABASE_URL).toBe(ha);
    expect(() => loadRuntimeConfig({ DATABASE_URL: 'postgres://u:secret@h1:6001,h2:0/db' })).toThrow(
      'DATABASE_URL is not usable: Bad port in the database URL: "h2:0"',
    );
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadRuntimeConfig({ DATABASE_URL: 'postgres://127.0.0.1:5432/test' }).DATABASE_URL).toBe(
      'postgres://127.0.0.1:5432/test',
    );
  });
});
