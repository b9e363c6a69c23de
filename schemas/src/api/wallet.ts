import { Type, type Static } from '@sinclair/typebox';
import { IdentityStatus } from './identity';
import { refusal } from './refusal';
import { RequestBody } from './request-body';
import { idempotencyHeaders } from './trades';

/** Wallet, transactions, deposits and withdrawals (spec §3 Wallet, Transaction, Deposit request; §7 Wallet). */

const Dollars = (description: string) => Type.Number({ description: `${description} (dollars, 2 decimals)` });

export const BonusStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('completed'), Type.Literal('forfeited'), Type.Literal('expired')],
  { title: 'BonusStatus', description: 'Status of the latest first-deposit bonus' },
);

export const WalletResponse = Type.Object(
  {
    real_balance: Dollars('Withdrawable cash'),
    demo_balance: Dollars('Practice funds'),
    bonus_balance: Dollars('Bonus funds not yet converted to cash'),
    bonus_status: Type.Union([BonusStatus, Type.Null()]),
    bonus_turnover_progress: Dollars('Turnover counted toward the bonus so far'),
    bonus_turnover_required: Dollars('Turnover needed to complete the bonus (35 x bonus)'),
    bonus_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the bonus expires, ISO 8601; null without a bonus',
    }),
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
    created_at: Type.String({ format: 'date-time', description: 'When the movement was posted, ISO 8601' }),
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
      description: `How many of the newest movements, 1 to ${WALLET_TRANSACTIONS_LIMIT_MAX}; more is refused (400)`,
    }),
  ),
});

export const AccountType = Type.Union([Type.Literal('real'), Type.Literal('demo')], {
  title: 'WalletAccountType',
});

/** The largest single deposit or withdrawal, dollars: bounds a typo ($1,000,000 for $1,000). */
export const PAYMENT_AMOUNT_MAX = 100_000;

function paymentAmount(verb: 'deposit' | 'withdrawal') {
  // More than 0 with two decimals is at least 0.01. (OpenAPI 3.0 takes `exclusiveMinimum` only as
  // a boolean, so the bound is written as the smallest amount instead.)
  return Type.Number({
    minimum: 0.01,
    maximum: PAYMENT_AMOUNT_MAX,
    multipleOf: 0.01,
    description: `Dollars, more than 0 and at most ${PAYMENT_AMOUNT_MAX.toLocaleString('en-US')}.00, at most 2 decimals`,
    ...refusal('INVALID_AMOUNT', {
      minimum: 'Please enter a valid amount',
      multipleOf: 'Please enter a valid amount',
      maximum: `Maximum ${verb} amount is $${PAYMENT_AMOUNT_MAX.toLocaleString('en-US')}.00`,
    }),
  });
}

export const DepositBody = RequestBody(
  {
    amount: paymentAmount('deposit'),
    account_type: Type.Optional(AccountType),
  },
  { title: 'DepositBody', description: 'account_type defaults to real' },
);
export type DepositBody = Static<typeof DepositBody>;

export const WithdrawBody = RequestBody(
  {
    amount: paymentAmount('withdrawal'),
    account_type: Type.Optional(AccountType),
  },
  { title: 'WithdrawBody', description: 'account_type defaults to real; demo funds cannot be withdrawn' },
);
export type WithdrawBody = Static<typeof WithdrawBody>;

export const DepositIdempotencyHeaders = idempotencyHeaders(
  'A retry with the same key returns the first deposit and moves the money once',
);
export const WithdrawIdempotencyHeaders = idempotencyHeaders(
  'A retry with the same key returns the first withdrawal request and holds the money once',
);

export const PaymentRequestStatus = Type.Union(
  [Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')],
  { title: 'PaymentRequestStatus' },
);

export const PaymentRequest = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    user_id: Type.String({ format: 'uuid' }),
    amount: Type.Number(),
    account_type: AccountType,
    status: PaymentRequestStatus,
    created_at: Type.String({ format: 'date-time', description: 'When the request was made, ISO 8601' }),
    /** The trader's identity verification: on the admin's withdrawal list only. */
    identity_status: Type.Optional(IdentityStatus),
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
