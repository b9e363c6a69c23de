import type { MigrationSet } from '@updown/runtime';
import * as ledger from './0002_ledger';
import * as platformSettings from './0030a_platform_settings';
import * as bonuses from './0030b_bonuses';
import * as paymentRequests from './0040_wallet';
import * as paymentIdempotency from './0041_payment_idempotency';
import * as ledgerAccountsFillfactor from './0042_ledger_accounts_fillfactor';
import * as paymentIntents from './0043_payment_intents';
import * as ledgerPostingsStatementChecks from './0044_ledger_postings_statement_checks';
import * as withdrawalClearances from './0045_withdrawal_clearances';

/** The wallet's tables: the ledger, the platform's money terms, bonuses, payment requests and
 * the withdrawal clearances that identity verification grants. */
export const walletMigrations: MigrationSet = {
  owner: 'wallet',
  migrations: {
    '0002_ledger': ledger,
    '0030a_platform_settings': platformSettings,
    '0030b_bonuses': bonuses,
    '0040_wallet': paymentRequests,
    '0041_payment_idempotency': paymentIdempotency,
    '0042_ledger_accounts_fillfactor': ledgerAccountsFillfactor,
    '0043_payment_intents': paymentIntents,
    '0044_ledger_postings_statement_checks': ledgerPostingsStatementChecks,
    '0045_withdrawal_clearances': withdrawalClearances,
  },
};
