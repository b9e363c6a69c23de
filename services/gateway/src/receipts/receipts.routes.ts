import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { findTrade } from '@updown/order';
import { listCheckpoints } from '@updown/price-ingest';
import { DomainError, type Database, type KeySet as PublishedKeySet } from '@updown/runtime';
import {
  CheckpointList,
  CHECKPOINTS_LIMIT_DEFAULT,
  CheckpointsQuery,
  KeySet,
  ReceiptDocument,
  TradeIdParams,
} from '@updown/schemas/api';
import { loadReceipt } from '@updown/settlement';
import { errorResponses } from '../http/responses';

export interface ReceiptsPluginDeps {
  readonly db: Kysely<Database>;
  /** The public keys checkpoints and receipts are signed with. */
  readonly keySet: PublishedKeySet;
}

/** Where the key set is published: a well-known URI (RFC 8615) a verifier can find from the host alone. */
export const KEY_SET_PATH = '/.well-known/updown-keys.json';

class TradeNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'Trade not found');
  }
}

class ReceiptPending extends DomainError {
  constructor(settled: boolean) {
    super(
      'RECEIPT_PENDING',
      settled
        ? 'The receipt is issued once a signed checkpoint covers the trade’s exit, usually within a minute of settlement; try again shortly'
        : 'The trade is still open: its receipt is issued after it settles',
    );
  }
}

/**
 * Provable settlement's public side (docs/receipts.md): the key set, the chains' signed
 * checkpoints, and a settled trade's signed receipt with its proof.
 */
export function createReceiptsPlugin(deps: ReceiptsPluginDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      KEY_SET_PATH,
      {
        schema: {
          tags: ['receipts'],
          summary: 'The public keys that sign checkpoints and receipts',
          description:
            'JWKS; each key’s `kid` is its RFC 7638 thumbprint. Retired keys stay listed so older receipts still verify.',
          response: { 200: KeySet },
        },
      },
      async (_request, reply) => {
        void reply.header('cache-control', 'public, max-age=300');
        return { keys: [...deps.keySet.keys] };
      },
    );

    app.get(
      '/api/checkpoints',
      {
        schema: {
          tags: ['receipts'],
          summary: 'Signed checkpoints of a pair’s tick chain, newest first',
          description:
            'Public. Each signs the chain head, the tick count and the time range since the previous one.',
          querystring: CheckpointsQuery,
          response: { 200: CheckpointList, ...errorResponses(400) },
        },
      },
      async (request) =>
        listCheckpoints(
          deps.db,
          request.query.pair.trim().toUpperCase(),
          request.query.limit ?? CHECKPOINTS_LIMIT_DEFAULT,
          request.query.before,
        ),
    );

    app.get(
      '/api/trades/:id/receipt',
      {
        onRequest: app.authenticate,
        schema: {
          tags: ['trades', 'receipts'],
          summary: 'The signed receipt of a settled trade, with its proof',
          description:
            'The owner or an admin. 409 `RECEIPT_PENDING` until a signed checkpoint covers the exit (one per pair per minute by default). Verify it offline: `npx updown-verify receipt.json --keys updown-keys.json`.',
          security: [{ bearerAuth: [] }],
          params: TradeIdParams,
          response: { 200: ReceiptDocument, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request) => {
        const trade = await findTrade(deps.db, request.params.id);
        if (!trade || (trade.user_id !== request.user.id && request.user.role !== 'admin'))
          throw new TradeNotFound();
        const found = await loadReceipt(deps.db, trade.id);
        if (found.status === 'issued') {
          const { receipt, signature, proof } = found.document;
          return {
            receipt: { ...receipt, ledgerEntryIds: [...receipt.ledgerEntryIds] },
            signature,
            proof: {
              entry: proof.entry && { checkpoint: proof.entry.checkpoint, segment: [...proof.entry.segment] },
              exit: proof.exit && { checkpoint: proof.exit.checkpoint, segment: [...proof.exit.segment] },
            },
          };
        }
        throw new ReceiptPending(trade.status !== 'pending');
      },
    );
  };
}
