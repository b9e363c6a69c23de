import { Type, type Static } from '@sinclair/typebox';
import { PairSymbolInput } from './market';
import { refusal } from './refusal';
import { RequestBody } from './request-body';

/**
 * Provable settlement (docs/receipts.md): the public key set, signed checkpoints of the tick
 * chains, a settled trade's signed receipt with its proof, and disputes. The receipt's own fields
 * use the document's names (camelCase, integers for cents and ms, decimal strings for prices)
 * because their canonical JSON is what is signed; the rest of the API keeps its snake_case.
 */

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lowercase hex' });
const PriceText = Type.String({
  pattern: '^[0-9]+(\\.[0-9]+)?$',
  description: 'The shortest decimal that round-trips the stored binary64 price',
});

export const ChainTick = Type.Object(
  {
    seq: Type.Integer({ minimum: 1, description: "The tick's place in its pair's chain" }),
    atMs: Type.Integer({ description: 'Unix epoch milliseconds' }),
    price: PriceText,
    prevHash: Hash,
    hash: Hash,
  },
  { title: 'ChainTick' },
);

export const Signature = Type.Object(
  {
    alg: Type.Literal('Ed25519'),
    kid: Type.String({ description: 'RFC 7638 thumbprint of the signing key (see the key set)' }),
    sig: Type.String({ description: 'The 64-byte Ed25519 signature, base64url without padding' }),
  },
  { title: 'Signature' },
);

export const SignedCheckpoint = Type.Object(
  {
    checkpoint: Type.Object({
      type: Type.Literal('updown.checkpoint.v1'),
      pair: Type.String(),
      fromSeq: Type.Integer(),
      toSeq: Type.Integer(),
      ticks: Type.Integer(),
      fromMs: Type.Integer(),
      toMs: Type.Integer(),
      startHash: Hash,
      headHash: Hash,
      signedAtMs: Type.Integer(),
    }),
    signature: Signature,
  },
  { title: 'SignedCheckpoint' },
);

export const CheckpointList = Type.Array(SignedCheckpoint, { title: 'CheckpointList' });

export const CHECKPOINTS_LIMIT_DEFAULT = 60;
export const CHECKPOINTS_LIMIT_MAX = 1_000;

export const CheckpointsQuery = Type.Object({
  pair: PairSymbolInput,
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: CHECKPOINTS_LIMIT_MAX, default: CHECKPOINTS_LIMIT_DEFAULT }),
  ),
  before: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Only checkpoints ending before this seq (paging)',
    }),
  ),
});

export const KeySet = Type.Object(
  {
    keys: Type.Array(
      Type.Object({
        kty: Type.Literal('OKP'),
        crv: Type.Literal('Ed25519'),
        x: Type.String(),
        kid: Type.String(),
        use: Type.Literal('sig'),
        alg: Type.Literal('EdDSA'),
        status: Type.Union([Type.Literal('active'), Type.Literal('retired')]),
      }),
    ),
  },
  { title: 'KeySet', description: 'JWKS (RFC 7517) of the Ed25519 keys that sign checkpoints and receipts' },
);

const NullableTick = Type.Union([ChainTick, Type.Null()]);
const CheckpointRef = Type.Union([Type.Object({ toSeq: Type.Integer(), headHash: Hash }), Type.Null()]);
const Outcome = Type.Union([
  Type.Literal('won'),
  Type.Literal('lost'),
  Type.Literal('draw'),
  Type.Literal('void'),
]);

export const Receipt = Type.Object(
  {
    type: Type.Literal('updown.receipt.v1'),
    receiptId: Type.String({ format: 'uuid' }),
    tradeId: Type.String({ format: 'uuid' }),
    userId: Type.String({ format: 'uuid' }),
    pair: Type.String(),
    direction: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
    account: Type.Union([Type.Literal('demo'), Type.Literal('real')]),
    stakeCents: Type.Integer(),
    payoutBasisPoints: Type.Integer({ description: 'Payout percent × 100' }),
    acceptedAtMs: Type.Integer(),
    expiryAtMs: Type.Integer({ description: 'The exact expiry, Unix epoch milliseconds' }),
    entryPrice: PriceText,
    entryTick: NullableTick,
    exitTick: NullableTick,
    afterExpiryTick: NullableTick,
    outcome: Outcome,
    rule: Type.String(),
    pnlCents: Type.Integer(),
    ledgerKey: Type.String(),
    ledgerEntryIds: Type.Array(Type.String()),
    settledAtMs: Type.Integer(),
    checkpoints: Type.Object({ entry: CheckpointRef, exit: CheckpointRef }),
    issuedAtMs: Type.Integer(),
  },
  { title: 'Receipt' },
);

const Proof = Type.Union([
  Type.Object({ checkpoint: SignedCheckpoint, segment: Type.Array(ChainTick) }),
  Type.Null(),
]);

export const ReceiptDocument = Type.Object(
  {
    receipt: Receipt,
    signature: Signature,
    proof: Type.Object({ entry: Proof, exit: Proof }),
  },
  {
    title: 'ReceiptDocument',
    description:
      'A settled trade’s signed receipt and its proof (docs/receipts.md); verify it offline with `npx updown-verify`',
  },
);
export type ReceiptDocument = Static<typeof ReceiptDocument>;

export const DISPUTE_REASON_MAX = 500;

export const DisputeBody = RequestBody(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: DISPUTE_REASON_MAX,
      description: 'What the trader believes is wrong',
      ...refusal('VALIDATION', {
        minLength: 'Please say what is wrong with this settlement',
        maxLength: `A reason is at most ${DISPUTE_REASON_MAX} characters`,
      }),
    }),
  },
  { title: 'DisputeBody' },
);

export const ResolveDisputeBody = RequestBody(
  {
    decision: Type.Union([Type.Literal('confirm'), Type.Literal('correct')]),
    note: Type.String({
      minLength: 1,
      maxLength: DISPUTE_REASON_MAX,
      ...refusal('VALIDATION', {
        minLength: 'Please write a note for the trader',
        maxLength: `A note is at most ${DISPUTE_REASON_MAX} characters`,
      }),
    }),
  },
  { title: 'ResolveDisputeBody' },
);

const ReplayStep = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: Type.Union([
    Type.Literal('ok'),
    Type.Literal('fail'),
    Type.Literal('warn'),
    Type.Literal('skipped'),
  ]),
  detail: Type.String(),
});

const DisputeStatus = Type.Union([
  Type.Literal('open'),
  Type.Literal('confirmed'),
  Type.Literal('corrected'),
]);

const disputeFields = {
  id: Type.String({ format: 'uuid' }),
  trade_id: Type.String({ format: 'uuid' }),
  pair: Type.String(),
  reason: Type.String(),
  status: DisputeStatus,
  replay: Type.Object({
    verdict: Type.Union([Type.Literal('confirmed'), Type.Literal('mismatch')]),
    summary: Type.String(),
    steps: Type.Array(ReplayStep),
    recorded: Type.Object({ outcome: Outcome, pnl: Type.Number({ description: 'Dollars' }) }),
    replayed: Type.Object({
      outcome: Type.Union([Outcome, Type.Null()]),
      pnl: Type.Union([Type.Number({ description: 'Dollars' }), Type.Null()]),
    }),
  }),
  correction: Type.Union([
    Type.Number({ description: 'Dollars to the trader; negative reclaims' }),
    Type.Null(),
  ]),
  resolution_note: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  resolved_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
};

export const Dispute = Type.Object(disputeFields, { title: 'Dispute' });
export const DisputeList = Type.Array(Dispute, { title: 'DisputeList' });

export const AdminDispute = Type.Object(
  {
    ...disputeFields,
    user_id: Type.String({ format: 'uuid' }),
    user_email: Type.Union([Type.String(), Type.Null()]),
    resolved_by: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'AdminDispute' },
);

export const AdminDisputePage = Type.Object(
  {
    disputes: Type.Array(AdminDispute, { description: 'Newest first' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page, with the same filters; null on the last page',
    }),
  },
  { title: 'AdminDisputePage' },
);

export const ADMIN_DISPUTES_LIMIT_DEFAULT = 50;
export const ADMIN_DISPUTES_LIMIT_MAX = 200;
const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export const AdminDisputesQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union(DisputeStatus.anyOf, {
        description: 'Only disputes in this status; every status when left out',
        ...refusal('VALIDATION', { '*': 'status is open, confirmed or corrected' }),
      }),
    ),
    trader: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 254,
        pattern: `^(${UUID_PATTERN}|[^\\s@]+@[^\\s@]+)$`,
        description: "Only this trader's disputes: their user id, or their email address (any case)",
        ...refusal('VALIDATION', { '*': 'trader is a user id or an email address' }),
      }),
    ),
    pair: Type.Optional(PairSymbolInput),
    from: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description: 'Only disputes filed at or after this time (ISO 8601 with a time zone)',
        ...refusal('VALIDATION', { '*': 'from is a date and time such as 2026-01-05T12:00:00Z' }),
      }),
    ),
    to: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description: 'Only disputes filed before this time (ISO 8601 with a time zone)',
        ...refusal('VALIDATION', { '*': 'to is a date and time such as 2026-01-05T12:00:00Z' }),
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '^[A-Za-z0-9_-]+$',
        description: "The previous page's `next_cursor`",
        ...refusal('VALIDATION', {
          '*': 'cursor is not one this list gave out; start again from the first page',
        }),
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ADMIN_DISPUTES_LIMIT_MAX,
        default: ADMIN_DISPUTES_LIMIT_DEFAULT,
        description: `Disputes per page, 1 to ${ADMIN_DISPUTES_LIMIT_MAX}`,
        ...refusal('VALIDATION', { '*': `limit is a whole number from 1 to ${ADMIN_DISPUTES_LIMIT_MAX}` }),
      }),
    ),
  },
  { title: 'AdminDisputesQuery' },
);
export type AdminDisputesQuery = Static<typeof AdminDisputesQuery>;
export const DisputeIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
