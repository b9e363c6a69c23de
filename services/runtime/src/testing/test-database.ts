import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, withDefaultUser, type DbHandle } from '../db/pool';

export interface TestDatabase extends DbHandle {
  readonly url: string;
  readonly name: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, fully migrated database cloned from the run's template: real PostgreSQL, isolated per
 * caller, ready in about a hundred milliseconds.
 */
export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const serverUrl = inject('pgServerUrl');
  const template = inject('pgTemplateDatabase');
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name} template ${template}`);
  const url = `${serverUrl}/${name}`;
  const handle = createDb(url, { max: options.max ?? 10, applicationName: 'updown-test' });
  return {
    ...handle,
    url,
    name,
    async drop() {
      await handle.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDefaultUser(`${serverUrl}/postgres`) });
  await client.connect();
  try {
    // CREATE DATABASE ... TEMPLATE fails if another session is connected to the template at that
    // instant; nothing connects to it after global setup, but retry briefly to be safe.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(text);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    await client.end();
  }
}
