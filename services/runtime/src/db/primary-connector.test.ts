import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { connectionHosts, DatabaseUnavailable, hostLabel, isDatabaseUnavailable } from './primary-connector';

describe('connectionHosts', () => {
  it('reads a one-host URL as it always was: one host, no search for the primary', () => {
    const target = connectionHosts('postgres://u:p@127.0.0.1:5433/updown?sslmode=disable');
    expect(target.hosts).toEqual([{ host: '127.0.0.1', port: 5433 }]);
    expect(target.readWrite).toBe(false);
    expect(target.url).toBe('postgres://u:p@127.0.0.1:5433/updown?sslmode=disable');
  });

  it("reads libpq's multi-host URL as pg_autoctl prints it, in order, and asks for a writable server", () => {
    const target = connectionHosts(
      'postgres://127.0.0.1:6001,127.0.0.1:6002/postgres?target_session_attrs=read-write&sslmode=prefer',
    );
    expect(target.hosts).toEqual([
      { host: '127.0.0.1', port: 6001 },
      { host: '127.0.0.1', port: 6002 },
    ]);
    expect(target.readWrite).toBe(true);
    // node-postgres gets the first host and the other parameters; the attribute is the platform's to keep.
    expect(target.url).toBe('postgres://127.0.0.1:6001/postgres?sslmode=prefer');
  });

  it('gives a host without a port 5432, keeps the user and password, and reads bracketed IPv6', () => {
    const target = connectionHosts('postgresql://app:s%40cret@db-a,[::1]:6000,db-c:7000/ledger');
    expect(target.hosts).toEqual([
      { host: 'db-a', port: 5432 },
      { host: '::1', port: 6000 },
      { host: 'db-c', port: 7000 },
    ]);
    expect(target.url).toBe('postgresql://app:s%40cret@db-a:5432/ledger');
    expect(target.hosts.map(hostLabel)).toEqual(['db-a:5432', '[::1]:6000', 'db-c:7000']);
  });

  it('leaves a URL that names no host (a Unix socket) to node-postgres, unchanged', () => {
    const url = 'postgres://app@/updown?host=/var/run/postgresql';
    expect(connectionHosts(url)).toEqual({ hosts: [], url, readWrite: false });
  });

  it('asks a single host for a writable server when the URL says so', () => {
    expect(connectionHosts('postgres://h:1/db?target_session_attrs=primary').readWrite).toBe(true);
    expect(connectionHosts('postgres://h:1/db?target_session_attrs=any').readWrite).toBe(false);
  });

  it('refuses what it cannot honour or read, naming it', () => {
    expect(() => connectionHosts('postgres://h1,h2/db?target_session_attrs=read-only')).toThrow(
      'target_session_attrs=read-only is not supported; use read-write',
    );
    expect(() => connectionHosts('postgres://h1:99999/db')).toThrow(
      'Bad port in the database URL: "h1:99999"',
    );
    expect(() => connectionHosts('postgres://h1,,h2/db')).toThrow(
      'Cannot read the host "" of the database URL',
    );
    expect(() => connectionHosts('not a url')).toThrow('is not a postgres:// URL');
  });
});

describe('isDatabaseUnavailable', () => {
  const pgError = (code: string, message = 'server said no') => Object.assign(new Error(message), { code });

  it('knows a server that went away, cannot be reached, or takes no writes', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '25006', '53100', '53300']) {
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
    }
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']) {
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new DatabaseUnavailable())).toBe(true);
  });

  it('sees through a wrapper that keeps the failure as its cause', () => {
    const wrapped = new Error('placement batch commit failed: Connection terminated', {
      cause: pgError('57P01'),
    });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: pgError('23505') }))).toBe(false);
  });

  it('leaves a failure of the statement itself, and any domain refusal, alone', () => {
    for (const code of ['23505', '42601', '40001', '40P01', '23514', '0800']) {
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new DomainError('INSUFFICIENT_FUNDS', 'Connection terminated'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });

  it('answers the refusal a trader may retry, and says when', () => {
    const refusal = new DatabaseUnavailable();
    expect(refusal.code).toBe('DATABASE_UNAVAILABLE');
    expect(refusal.status).toBe(503);
    expect(refusal.retryAfterSec).toBeGreaterThan(0);
  });
});
