import type { Kysely } from 'kysely';
import { listPairSymbols, PAIRS_KNOWN_MAX } from '@updown/price-ingest';
import type { Clock, Database } from '@updown/runtime';

/**
 * Which pair symbols exist, cached briefly so that a burst of WebSocket connections or chart
 * loads costs one query, not one each. A symbol not in the cache triggers a reload (at most one
 * per `missReloadMs`), so a pair an admin just added is found at once while a flood of unknown
 * symbols cannot turn into a flood of queries.
 */
export class PairDirectory {
  private symbols = new Set<string>();
  private loadedAtMs = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly ttlMs = 5_000,
    private readonly missReloadMs = 1_000,
  ) {}

  async has(symbol: string): Promise<boolean> {
    const ageMs = this.clock.nowMs() - this.loadedAtMs;
    if (ageMs > this.ttlMs || (!this.symbols.has(symbol) && ageMs > this.missReloadMs)) await this.reload();
    return this.symbols.has(symbol);
  }

  private reload(): Promise<void> {
    this.loading ??= listPairSymbols(this.db, PAIRS_KNOWN_MAX)
      .then((symbols) => {
        this.symbols = new Set(symbols);
        this.loadedAtMs = this.clock.nowMs();
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}
