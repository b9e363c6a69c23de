import * as outbox from './0001_outbox';
import * as outboxCursors from './0002_outbox_cursors';
import * as dropOutbox from './0003_drop_outbox';

/**
 * The runtime's own migrations (the outbox relay's cursors, and the `outbox` table it no longer
 * reads). Every package keeps its tables' migrations in its `src/db/migrations` and exports them
 * as a set; `migrateToLatest` runs the sets in package order.
 * Names are unique across all packages and keep the numbering they were created with:
 * 0001-0009 foundation (outbox, ledger), 0010-0019 market data, 0020-0029 accounts and sessions,
 * 0030-0039 trading, 0040-0049 wallet, bonus, admin and leaderboard.
 */
export const migrations = {
  '0001_outbox': outbox,
  '0002_outbox_cursors': outboxCursors,
  '0003_drop_outbox': dropOutbox,
};
