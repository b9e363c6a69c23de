import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Clock, Database } from '@updown/runtime';
import {
  cancelBonus,
  checkPaymentAmount,
  deposit,
  listUserTransactions,
  loadWallet,
  mockPaymentProvider,
  requestWithdrawal,
  type CommandOutcome,
  type PaymentProvider,
  type WalletDeps,
} from '@updown/wallet';
import {
  centsToDollars,
  DepositBody,
  DepositIdempotencyHeaders,
  dollarsToCents,
  WALLET_TRANSACTIONS_LIMIT_DEFAULT,
  WalletCommandResponse,
  WalletResponse,
  WalletTransactionList,
  WalletTransactionsQuery,
  WithdrawBody,
  WithdrawIdempotencyHeaders,
} from '@updown/schemas/api';
import { errorResponses } from '../http/responses';
import { paymentRequestView } from '../shared/payment-request.view';
import { walletView } from './wallet.view';

export interface WalletPluginDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  /** Defaults to the mock provider the spec's 'Deposit (Mock)' button names. */
  readonly payments?: PaymentProvider;
}

const security = [{ bearerAuth: [] }];

/** `/api/wallet/*` (spec §7 Wallet). Needs `createAuthPlugin` registered before it. */
export function createWalletPlugin(pluginDeps: WalletPluginDeps): FastifyPluginAsyncTypebox {
  const deps: WalletDeps = {
    db: pluginDeps.db,
    clock: pluginDeps.clock,
    payments: pluginDeps.payments ?? mockPaymentProvider,
  };

  async function answer(userId: string, amountCents: number, outcome: CommandOutcome) {
    const { balances, bonus } = await loadWallet(deps.db, userId);
    return {
      ...walletView(balances, bonus, deps.clock.nowMs()),
      status: outcome.status,
      amount: centsToDollars(amountCents),
      request: outcome.request ? paymentRequestView(outcome.request) : null,
    };
  }

  return async (app) => {
    app.get(
      '/api/wallet',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['wallet'],
          summary: 'Balances and bonus',
          security,
          response: { 200: WalletResponse, ...errorResponses(401) },
        },
      },
      async (request) => {
        const { balances, bonus } = await loadWallet(deps.db, request.user.id);
        return walletView(balances, bonus, deps.clock.nowMs());
      },
    );

    app.get(
      '/api/wallet/transactions',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['wallet'],
          summary: 'Movements on real, bonus and demo, newest first',
          security,
          querystring: WalletTransactionsQuery,
          response: { 200: WalletTransactionList, ...errorResponses(400, 401) },
        },
      },
      async (request) => {
        const rows = await listUserTransactions(deps.db, request.user.id, {
          limit: request.query.limit ?? WALLET_TRANSACTIONS_LIMIT_DEFAULT,
        });
        return rows.map((row) => ({
          id: row.id,
          type: row.type,
          amount: centsToDollars(row.amountCents),
          balance_after: centsToDollars(row.balanceAfter),
          account_type: row.accountType,
          created_at: row.createdAt.toISOString(),
        }));
      },
    );

    app.post(
      '/api/wallet/deposit',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['wallet'],
          summary: 'Deposit (demo at once; real through the payment provider, or pending approval)',
          security,
          headers: DepositIdempotencyHeaders,
          body: DepositBody,
          response: { 200: WalletCommandResponse, ...errorResponses(400, 401, 402, 409) },
        },
      },
      async (request) => {
        const amountCents = checkPaymentAmount(dollarsToCents(request.body.amount), 'deposit');
        const outcome = await deposit(deps, {
          userId: request.user.id,
          amountCents,
          accountType: request.body.account_type ?? 'real',
          idempotencyKey: request.headers['idempotency-key'],
        });
        return answer(request.user.id, amountCents, outcome);
      },
    );

    app.post(
      '/api/wallet/withdraw',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['wallet'],
          summary:
            'Request a withdrawal: the cash is held until an admin decides; an active bonus is forfeited',
          description:
            "Real funds only, and only once the trader's identity is verified: before that, 403 `IDENTITY_NOT_VERIFIED` and nothing moves " +
            '(upload a photo ID and a proof of address, `POST /api/identity/documents`, and submit them, `POST /api/identity/submit`). ' +
            'Honours `Idempotency-Key`: a retry answers as the first request did. 400 `INSUFFICIENT_FUNDS`, `DEMO_WITHDRAWAL`, `INVALID_AMOUNT`; 409 `IDEMPOTENCY_CONFLICT`.',
          security,
          headers: WithdrawIdempotencyHeaders,
          body: WithdrawBody,
          response: { 200: WalletCommandResponse, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request) => {
        const amountCents = checkPaymentAmount(dollarsToCents(request.body.amount), 'withdrawal');
        const outcome = await requestWithdrawal(deps, {
          userId: request.user.id,
          amountCents,
          accountType: request.body.account_type ?? 'real',
          idempotencyKey: request.headers['idempotency-key'],
        });
        return answer(request.user.id, amountCents, outcome);
      },
    );

    app.post(
      '/api/wallet/cancel-bonus',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['wallet'],
          summary: 'Forfeit the active bonus',
          security,
          response: { 200: WalletResponse, ...errorResponses(400, 401) },
        },
      },
      async (request) => {
        await cancelBonus(deps, request.user.id);
        const { balances, bonus } = await loadWallet(deps.db, request.user.id);
        return walletView(balances, bonus, deps.clock.nowMs());
      },
    );
  };
}
