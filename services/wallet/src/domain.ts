/**
 * The wallet's pure rules: no I/O, no clock, no randomness. Importable from `@updown/wallet/domain`:
 * the ledger's shape of a valid transfer and account naming, the bonus rules, the wallet commands'
 * rules, the stake rules (cash/bonus split, bonus stake cap) and the payout setting's bounds.
 */
export * from './ledger/ledger.domain';
export * from './bonus/bonus.domain';
export * from './commands/wallet.domain';
export * from './stakes/stake.domain';
export * from './settings/settings.domain';
