import type { Migration } from 'kysely';
import * as outbox from './0001_outbox';
import * as ledger from './0002_ledger';
import * as market from './0010_market';
import * as candleVolume from './0011_candle_volume';
import * as users from './0020_users';
import * as refreshTokens from './0021_refresh_tokens';
import * as loginFailures from './0022_login_failures';
import * as trades from './0030_trades';
import * as tradesHedgeLookup from './0031_trades_hedge_lookup';
import * as wallet from './0040_wallet';
import * as paymentIdempotency from './0041_payment_idempotency';
import * as ledgerAccountsFillfactor from './0042_ledger_accounts_fillfactor';

/**
 * Every migration, by name. Names sort in the order they apply; numbers are reserved by area:
 * 0001-0009 foundation (outbox, ledger), 0010-0019 market data, 0020-0029 accounts and sessions,
 * 0030-0039 trading, 0040-0049 wallet, bonus, admin and leaderboard.
 */
export const migrations: Record<string, Migration> = {
  '0001_outbox': outbox,
  '0002_ledger': ledger,
  '0010_market': market,
  '0011_candle_volume': candleVolume,
  '0020_users': users,
  '0021_refresh_tokens': refreshTokens,
  '0022_login_failures': loginFailures,
  '0030_trades': trades,
  '0031_trades_hedge_lookup': tradesHedgeLookup,
  '0040_wallet': wallet,
  '0041_payment_idempotency': paymentIdempotency,
  '0042_ledger_accounts_fillfactor': ledgerAccountsFillfactor,
};
