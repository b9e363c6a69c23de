import { Type, type Static } from '@sinclair/typebox';
import { RequestBody } from './request-body';

/** Wallet, transactions, deposits and withdrawals (spec §3 Wallet, Transaction, Deposit request; §7 Wallet). */

const Dollars = (description: string) => Type.Number({ description: `${description} (dollars, 2 decimals)` });

export const BonusStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('completed'), Type.Literal('forfeited'), Type.Literal('expired')],
  { description: 'Status of the latest first-deposit bonus' },
);

export const WalletResponse = Type.Object(
  {
    real_balance: Dollars('Withdrawable cash'),
    demo_balance: Dollars('Practice funds'),
    bonus_balance: Dollars('Bonus funds not yet converted to cash'),
    bonus_status: Type.Union([BonusStatus, Type.Null()]),
    bonus_turnover_progress: Dollars('Turnover counted toward the bonus so far'),
    bonus_turnover_required: Dollars('Turnover needed to complete the bonus (35 x bonus)'),
    bonus_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    first_deposit_bonus_used: Type.Boolean(),
    bonus_amount: Dollars('The bonus credited'),
    bonus_days_remaining: Type.Integer({ minimum: 0, description: 'Whole days until expiry, rounded up' }),
    bonus_max_stake: Dollars('Largest real stake per trade while the bonus is active (20% of the bonus)'),
  },
  { title: 'Wallet' },
);
export type WalletResponse = Static<typeof WalletResponse>;

export const WalletTransaction = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ description: 'deposit, withdrawal, trade_stake, trade_payout, bonus_credit, ...' }),
    amount: Dollars('Signed: positive is a credit'),
    balance_after: Dollars('Balance of the account after this movement'),
    account_type: Type.String({ description: 'real, bonus or demo' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'WalletTransaction' },
);
export const WalletTransactionList = Type.Array(WalletTransaction, { title: 'WalletTransactionList' });

export const WALLET_TRANSACTIONS_LIMIT_DEFAULT = 50;
export const WALLET_TRANSACTIONS_LIMIT_MAX = 200;

export const WalletTransactionsQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: WALLET_TRANSACTIONS_LIMIT_MAX,
      default: WALLET_TRANSACTIONS_LIMIT_DEFAULT,
    }),
  ),
});

export const AccountType = Type.Union([Type.Literal('real'), Type.Literal('demo')]);

export const WalletAmountBody = RequestBody({
  amount: Type.Number({ description: 'Dollars, more than 0, at most 2 decimals' }),
  account_type: Type.Optional(AccountType),
});
export type WalletAmountBody = Static<typeof WalletAmountBody>;

export const PaymentRequestStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
]);

export const PaymentRequest = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    user_id: Type.String({ format: 'uuid' }),
    amount: Type.Number(),
    account_type: AccountType,
    status: PaymentRequestStatus,
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'PaymentRequest' },
);
export type PaymentRequest = Static<typeof PaymentRequest>;
export const PaymentRequestList = Type.Array(PaymentRequest, { title: 'PaymentRequestList' });

/** The answer to a deposit or withdrawal: the outcome, the request row if one was made, and the wallet after it. */
export const WalletCommandResponse = Type.Composite(
  [
    WalletResponse,
    Type.Object({
      status: Type.Union([Type.Literal('completed'), Type.Literal('pending')]),
      amount: Type.Number(),
      request: Type.Union([PaymentRequest, Type.Null()]),
    }),
  ],
  { title: 'WalletCommandResponse' },
);
export type WalletCommandResponse = Static<typeof WalletCommandResponse>;
