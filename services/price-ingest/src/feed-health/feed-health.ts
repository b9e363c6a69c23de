import type { Clock } from '@updown/runtime';
import type { FeedObserver } from '../feed/price-provider';
import type { FeedReport } from './feed-status.repository';
import { FEED_STALE_AFTER_MS } from './feed-status.domain';

export type FeedRole = 'primary' | 'reference';

/** Ticks per second are counted over this window. */
export const RATE_WINDOW_MS = 60_000;
/** The longest error text kept for the Feeds view: an exchange's message, not its whole answer. */
const ERROR_TEXT_MAX = 200;

interface FeedState {
  readonly provider: string;
  readonly sourceSymbol: string | null;
  readonly startedAtMs: number;
  lastTickAtMs: number | null;
  lastPrice: number | null;
  /** Tick counts per second of the window, oldest first: bounded by the window's seconds. */
  readonly perSecond: Map<number, number>;
  reconnects: number;
  gaps: number;
  malformed: number;
  lastError: string | null;
}

export interface FeedHealthEvents {
  reconnected(pair: string, role: FeedRole, provider: string): void;
  gap(pair: string, role: FeedRole, provider: string): void;
  malformed(role: FeedRole, provider: string): void;
}

/**
 * Every feed's health, per pair and role: when it last ticked, its rate, reconnects, gaps (a
 * silence of 5 s or more between two ticks) and unreadable messages. Fed by the ticks on their way
 * to the pipeline and by the providers' `FeedObserver` callbacks; read once a second into
 * `market_feed_status` and the metrics.
 */
export class FeedHealth {
  private readonly feeds = new Map<string, FeedState>();

  constructor(
    private readonly clock: Clock,
    private readonly events: FeedHealthEvents,
  ) {}

  /** Starts tracking a feed, or restarts it when its provider or symbol changed. */
  track(pair: string, role: FeedRole, provider: string, sourceSymbol: string | null): void {
    const current = this.feeds.get(key(pair, role));
    if (current && current.provider === provider && current.sourceSymbol === sourceSymbol) return;
    this.feeds.set(key(pair, role), {
      provider,
      sourceSymbol,
      startedAtMs: this.clock.nowMs(),
      lastTickAtMs: null,
      lastPrice: null,
      perSecond: new Map(),
      reconnects: 0,
      gaps: 0,
      malformed: 0,
      lastError: null,
    });
  }

  untrack(pair: string, role: FeedRole): void {
    this.feeds.delete(key(pair, role));
  }

  tick(pair: string, role: FeedRole, price: number, atMs: number): void {
    const feed = this.feeds.get(key(pair, role));
    if (!feed) return;
    const since = feed.lastTickAtMs ?? feed.startedAtMs;
    if (atMs - since >= FEED_STALE_AFTER_MS) {
      feed.gaps++;
      this.events.gap(pair, role, feed.provider);
    }
    feed.lastTickAtMs = atMs;
    feed.lastPrice = price;
    const second = Math.floor(atMs / 1000);
    feed.perSecond.set(second, (feed.perSecond.get(second) ?? 0) + 1);
    const oldest = second - RATE_WINDOW_MS / 1000;
    for (const s of feed.perSecond.keys()) {
      if (s > oldest) break;
      feed.perSecond.delete(s);
    }
  }

  /** The provider callbacks for feeds of one role. */
  observer(role: FeedRole): FeedObserver {
    return {
      reconnected: (pair) => {
        const feed = this.feeds.get(key(pair, role));
        if (!feed) return;
        feed.reconnects++;
        this.events.reconnected(pair, role, feed.provider);
      },
      disconnected: (pair, error) => {
        const feed = this.feeds.get(key(pair, role));
        if (feed) feed.lastError = errorText(error);
      },
      malformed: (pair, error) => {
        const feed = pair === null ? undefined : this.feeds.get(key(pair, role));
        if (feed) {
          feed.malformed++;
          feed.lastError = `unreadable message: ${errorText(error)}`;
        }
        this.events.malformed(role, feed?.provider ?? 'unknown');
      },
    };
  }

  latestPrice(pair: string, role: FeedRole): { price: number; atMs: number } | undefined {
    const feed = this.feeds.get(key(pair, role));
    if (!feed || feed.lastPrice === null || feed.lastTickAtMs === null) return undefined;
    return { price: feed.lastPrice, atMs: feed.lastTickAtMs };
  }

  /**
   * Every tracked feed's report now; `divergenceBps` fills the primary rows. `startedAtMs` is when
   * the feed was (re)started: a feed that never ticked has been silent since then.
   */
  reports(divergenceBps: (pair: string) => number | null): (FeedReport & { startedAtMs: number })[] {
    const now = this.clock.nowMs();
    const windowStart = Math.floor(now / 1000) - RATE_WINDOW_MS / 1000;
    return [...this.feeds].map(([k, feed]) => {
      const [pair, role] = splitKey(k);
      let ticks = 0;
      for (const [second, count] of feed.perSecond) if (second > windowStart) ticks += count;
      const windowMs = Math.min(RATE_WINDOW_MS, Math.max(1_000, now - feed.startedAtMs));
      return {
        pair,
        role,
        provider: feed.provider,
        sourceSymbol: feed.sourceSymbol,
        lastTickAtMs: feed.lastTickAtMs,
        ticksPerSec: Math.round((ticks / (windowMs / 1000)) * 100) / 100,
        reconnects: feed.reconnects,
        gaps: feed.gaps,
        malformed: feed.malformed,
        lastError: feed.lastError,
        divergenceBps: role === 'primary' ? divergenceBps(pair) : null,
        startedAtMs: feed.startedAtMs,
      };
    });
  }
}

function key(pair: string, role: FeedRole): string {
  return `${role}|${pair}`;
}

function splitKey(k: string): [string, FeedRole] {
  const bar = k.indexOf('|');
  return [k.slice(bar + 1), k.slice(0, bar) as FeedRole];
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > ERROR_TEXT_MAX ? `${text.slice(0, ERROR_TEXT_MAX)}…` : text;
}
