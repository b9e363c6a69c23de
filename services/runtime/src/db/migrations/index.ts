import type { Migration } from 'kysely';
import * as outbox from './0001_outbox';
import * as ledger from './0002_ledger';

/**
 * Every migration, by name. Names sort in the order they apply; numbers are reserved by area:
 * 0001-0009 foundation (outbox, ledger), 0010-0019 market data, 0020-0029 accounts and sessions,
 * 0030-0039 trading, 0040-0049 wallet, bonus, admin and leaderboard.
 */
export const migrations: Record<string, Migration> = {
  '0001_outbox': outbox,
  '0002_ledger': ledger,
};
