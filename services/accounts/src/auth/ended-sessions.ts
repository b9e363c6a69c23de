import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import { meterJob, type Clock, type Database, type Logger } from '@updown/runtime';
import { endedSessionsSince, isSessionEnded } from './sessions.repository';

export interface EndedSessionsOptions {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long an access token lives: an ended session is remembered that long, then forgotten. */
  readonly accessTokenTtlSec: number;
  /** How often the sessions ended by other processes are read (one query, whatever the traffic). */
  readonly syncMs: number;
}

/**
 * Room for clocks of two gateways that disagree and for a revocation that commits a moment after
 * the time it records: a sync reads this far behind its previous one, and an ended session is
 * remembered this much longer than the access tokens it could have issued.
 */
const SKEW_MS = 60_000;
/** Syncs missed in a row before the copy is no longer trusted and each check reads PostgreSQL. */
const STALE_AFTER_SYNCS = 5;

/**
 * Which sessions have ended, so an access token of an ended session is refused at once rather than
 * when it expires: on every authenticated request, without a round trip to PostgreSQL.
 *
 * The source of truth is `refresh_tokens.revoked_at` (a session is a family of refresh tokens; its
 * id is the `sid` claim of its access tokens). This process keeps the ended session ids of the last
 * access-token lifetime in memory:
 * - what this process ends (logout, log out everywhere, password change, a reused refresh token) is
 *   added before the answer goes out, so the next request anywhere in this process is refused;
 * - what another process ends (another gateway, the admin CLI's password reset) is read every
 *   `syncMs` by one indexed query, so it reaches every gateway within that interval;
 * - if syncing fails several times in a row (PostgreSQL unreachable), the copy may be missing an
 *   ending, so each check asks PostgreSQL until a sync succeeds again: never a stale "still valid".
 *
 * Entries are dropped once no access token of theirs can still be alive (`accessTokenTtlSec` after
 * the session ended), so memory holds one access-token lifetime of logouts at most.
 */
export class EndedSessions {
  /** Session id → the time (injected clock, ms) after which it need not be remembered. */
  private readonly ended = new Map<string, number>();
  /** Monotonic time of the last successful sync; staleness is judged on real time, not the clock. */
  private lastSyncedAt = Number.NEGATIVE_INFINITY;
  /** Injected-clock time from which the next sync reads. */
  private readFrom = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private failures = 0;

  constructor(private readonly options: EndedSessionsOptions) {}

  /** Loads the sessions ended within one token lifetime, then keeps syncing until `stop`. */
  async start(): Promise<void> {
    this.readFrom = this.options.clock.nowMs() - this.rememberMs();
    await this.sync();
    this.timer = setInterval(
      () => void meterJob('ended sessions sync', () => this.syncQuietly()),
      this.options.syncMs,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Records sessions this process has just ended (after the revocation committed). */
  add(sessionIds: Iterable<string>, endedAtMs: number): void {
    const until = endedAtMs + this.rememberMs();
    for (const id of sessionIds) this.ended.set(id, Math.max(until, this.ended.get(id) ?? until));
  }

  /** Whether the session has ended: from memory, or from PostgreSQL while the memory is stale. */
  async isEnded(sessionId: string): Promise<boolean> {
    if (this.ended.has(sessionId)) return true;
    if (this.fresh()) return false;
    return isSessionEnded(this.options.db, sessionId);
  }

  /** Reads what ended since the last sync (overlapping it by the skew allowance) and forgets the old. */
  async sync(): Promise<void> {
    this.syncing ??= this.readEnded().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async readEnded(): Promise<void> {
    const startedAt = performance.now();
    const now = this.options.clock.nowMs();
    const rows = await endedSessionsSince(this.options.db, new Date(this.readFrom));
    for (const row of rows) this.add([row.sessionId], row.endedAt.getTime());
    this.readFrom = now - SKEW_MS;
    for (const [id, until] of this.ended) if (until < now) this.ended.delete(id);
    this.lastSyncedAt = startedAt;
    this.failures = 0;
  }

  private async syncQuietly(): Promise<void> {
    try {
      await this.sync();
    } catch (error) {
      this.failures += 1;
      // One line when the copy stops being trusted, not one a second while PostgreSQL is away.
      if (this.failures === STALE_AFTER_SYNCS) {
        this.options.logger.warn(
          { err: error },
          'cannot read ended sessions; checking each access token against PostgreSQL until it answers',
        );
      }
    }
  }

  private fresh(): boolean {
    return performance.now() - this.lastSyncedAt < STALE_AFTER_SYNCS * this.options.syncMs;
  }

  private rememberMs(): number {
    return this.options.accessTokenTtlSec * 1000 + SKEW_MS;
  }
}
