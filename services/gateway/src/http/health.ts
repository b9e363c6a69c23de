import { sql, type Kysely } from 'kysely';
import { migrationsApplied, type Database, type Logger, type MigrationSet } from '@updown/runtime';
import {
  HealthResponse,
  NotReadyResponse,
  ReadinessResponse,
  type ReadinessChecks,
} from '@updown/schemas/api';
import type { GatewayInstance } from './instance';
import { errorResponses } from './responses';

export interface ReadinessResult {
  ok: boolean;
  /** `true` per healthy dependency, otherwise a short reason safe to show on a public endpoint. */
  checks: ReadinessChecks;
}

export type Readiness = () => Promise<ReadinessResult>;

/** A probe must answer before the orchestrator's own timeout, even when PostgreSQL hangs. */
const CHECK_TIMEOUT_MS = 2_000;

class CheckTimeout extends Error {}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ready means the database answers and every migration of the given packages has been applied: a process started against an old schema must not take traffic. The failure reason in the body is
 * deliberately coarse; the real error goes to the log.
 */
export function databaseReadiness(
  db: Kysely<Database>,
  logger: Logger,
  migrations: readonly MigrationSet[],
  timeoutMs = CHECK_TIMEOUT_MS,
): Readiness {
  return async () => {
    try {
      await withTimeout(sql`select 1`.execute(db), timeoutMs);
    } catch (error) {
      const reason = error instanceof CheckTimeout ? 'timeout' : 'unreachable';
      logger.warn({ err: error }, `readiness: database ${reason}`);
      return { ok: false, checks: { database: reason, migrations: 'unknown' } };
    }
    try {
      const applied = await withTimeout(migrationsApplied(db, migrations), timeoutMs);
      return applied
        ? { ok: true, checks: { database: true, migrations: true } }
        : { ok: false, checks: { database: true, migrations: 'pending' } };
    } catch (error) {
      logger.warn({ err: error }, 'readiness: migration state unavailable');
      return {
        ok: false,
        checks: { database: true, migrations: error instanceof CheckTimeout ? 'timeout' : 'unknown' },
      };
    }
  };
}

export function registerHealthRoutes(app: GatewayInstance, readiness: Readiness): void {
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness: the process is serving HTTP',
        tags: ['operations'],
        response: { 200: HealthResponse, ...errorResponses() },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: the database is reachable and migrated',
        tags: ['operations'],
        response: { 200: ReadinessResponse, 503: NotReadyResponse, ...errorResponses() },
      },
    },
    async (_request, reply) => {
      const result = await readiness();
      if (result.ok) return reply.code(200).send({ status: 'ok', checks: result.checks });
      const failing = Object.entries(result.checks)
        .filter(([, value]) => value !== true)
        .map(([name]) => name);
      return reply
        .code(503)
        .send({ detail: `Not ready: ${failing.join(', ')}`, code: 'NOT_READY', checks: result.checks });
    },
  );
}
