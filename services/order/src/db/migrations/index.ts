import type { MigrationSet } from '@updown/runtime';
import * as trades from './0030_trades';
import * as tradesHedgeLookup from './0031_trades_hedge_lookup';
import * as timeUnits from './0032_time_units';
import * as tradesSettledPosition from './0033_trades_settled_position';
import * as tradesOpenedPosition from './0034_trades_opened_position';
import * as tradesVoidReason from './0035_trades_void_reason';
import * as risk from './0036_risk';

/** Trades and their risk controls. */
export const orderMigrations: MigrationSet = {
  owner: 'order',
  migrations: {
    '0030_trades': trades,
    '0031_trades_hedge_lookup': tradesHedgeLookup,
    '0032_time_units': timeUnits,
    '0033_trades_settled_position': tradesSettledPosition,
    '0034_trades_opened_position': tradesOpenedPosition,
    '0035_trades_void_reason': tradesVoidReason,
    '0036_risk': risk,
  },
};
