import { sql, type Kysely } from 'kysely';
import {
  Counter,
  DomainError,
  Gauge,
  readOncePerScrape,
  type Clock,
  type Database,
  type Logger,
  type Registry,
} from '@updown/runtime';
import {
  InvalidDocument,
  PdfChecksBusy,
  PdfQueueFull,
  UploadLimitReached,
  VerificationLocked,
} from './identity.domain';

/**
 * The verification queue for operators: how many submissions wait and how long the oldest has
 * waited (read from PostgreSQL when Prometheus scrapes), and the decisions and refused uploads
 * since start. Withdrawals wait on verification, so a queue nobody works shows here before a
 * trader complains (`IdentityReviewBacklog`). Created once per registry, as several apps may share
 * one process's registry.
 */
export interface IdentityMetrics {
  readonly decisions: Counter<'decision'>;
  readonly refusedUploads: Counter<'reason'>;
  /** The database and clock the queue gauges read; the last app registered wins. */
  use(source: { db: Kysely<Database>; clock: Clock; logger: Logger }): void;
}

const shared = new WeakMap<Registry, IdentityMetrics>();

export function identityMetrics(registry: Registry): IdentityMetrics {
  const existing = shared.get(registry);
  if (existing) return existing;
  const registers = [registry];
  let source: { db: Kysely<Database>; clock: Clock; logger: Logger } | undefined;

  /** One query per scrape for both gauges: the second collect joins the first's. */
  const queue = readOncePerScrape(async () => {
    if (!source) return undefined;
    try {
      const { rows } = await sql<{ pending: number; oldest: Date | null }>`
        select count(*)::int as pending, min(submitted_at) as oldest
        from identity_submissions where status = 'pending'`.execute(source.db);
      const row = rows[0]!;
      return { pending: row.pending, oldestMs: row.oldest ? row.oldest.getTime() : null };
    } catch (error) {
      source.logger.warn({ err: error }, 'identity queue metrics: query failed');
      return undefined;
    }
  });

  new Gauge({
    name: 'updown_identity_verifications_pending',
    help: 'Identity submissions waiting for an admin decision',
    registers,
    async collect() {
      const figures = await queue();
      this.reset();
      if (figures) this.set(figures.pending);
    },
  });
  new Gauge({
    name: 'updown_identity_oldest_pending_seconds',
    help: 'How long the oldest pending identity submission has waited; 0 with none',
    registers,
    async collect() {
      const figures = await queue();
      this.reset();
      if (!figures || !source) return;
      this.set(figures.oldestMs === null ? 0 : Math.max(0, (source.clock.nowMs() - figures.oldestMs) / 1000));
    },
  });
  const metrics: IdentityMetrics = {
    decisions: new Counter({
      name: 'updown_identity_decisions_total',
      help: 'Identity verification decisions by admins, by decision (approve or reject)',
      labelNames: ['decision'],
      registers,
    }),
    refusedUploads: new Counter({
      name: 'updown_identity_uploads_refused_total',
      help: 'Identity document uploads refused, by reason (type, size, empty, unreadable, pages, password, image_size, form, locked, daily_limit, pdf_queue_account, pdf_queue_full)',
      labelNames: ['reason'],
      registers,
    }),
    use(next) {
      source = next;
    },
  };
  shared.set(registry, metrics);
  return metrics;
}

/**
 * The reason `refusedUploads` counts for an upload refused by `error`, if it is an upload refusal:
 * the document's own, or the form's, size's, daily limit's or PDF queue's.
 */
export function uploadRefusalReason(error: unknown): string | undefined {
  if (error instanceof InvalidDocument) return error.reason;
  if (error instanceof VerificationLocked) return 'locked';
  if (error instanceof DomainError && error.code === 'PAYLOAD_TOO_LARGE') return 'size';
  if (error instanceof DomainError && error.code === 'UNSUPPORTED_MEDIA_TYPE') return 'form';
  if (error instanceof UploadLimitReached) return 'daily_limit';
  if (error instanceof PdfChecksBusy) return 'pdf_queue_account';
  if (error instanceof PdfQueueFull) return 'pdf_queue_full';
  return undefined;
}
