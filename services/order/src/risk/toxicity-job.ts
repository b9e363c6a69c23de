import type { Kysely } from 'kysely';
import { repeatEvery, type Clock, type Database, type Logger } from '@updown/runtime';
import { refreshToxicityScores } from './toxicity.repository';

/** How often the toxicity scores are recomputed unless `intervalMs` says otherwise. */
export const TOXICITY_INTERVAL_MS_DEFAULT = 60_000;

export interface ToxicityJobDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly intervalMs?: number;
}

export interface ToxicityJob {
  /** Cancels the next run and waits for a run in progress. */
  stop(): Promise<void>;
  runOnce(): Promise<{ scored: number }>;
}

/**
 * Recomputes every recently active trader's toxicity score (`toxicity.domain.ts`) on a timer, the
 * first run one interval after start; a failed run is logged and tried again at the next. The
 * scores inform the admin's Users and Risk tabs only: nothing is done to a trader by them.
 */
export function startToxicityScoring(deps: ToxicityJobDeps): ToxicityJob {
  const job = repeatEvery({
    clock: deps.clock,
    intervalMs: deps.intervalMs ?? TOXICITY_INTERVAL_MS_DEFAULT,
    name: 'toxicity scoring',
    logger: deps.logger,
    task: () => refreshToxicityScores(deps.db, deps.clock.nowMs()),
  });
  return { stop: job.stop, runOnce: job.runNow };
}
