import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { findTrade } from '@updown/order';
import { DomainError, type Clock, type Database, type KeySet } from '@updown/runtime';
import { claimRows, lockUserWallet, postSettlementCorrection } from '@updown/wallet';
import {
  checkDisputable,
  correctionCents,
  DisputeAlreadyOpen,
  DisputeAlreadyResolved,
  DisputeNotFound,
  NothingToCorrect,
  OwnDispute,
} from './dispute.domain';
import {
  checkDisputeQuota,
  DISPUTE_FILING_WINDOW_MS,
  DISPUTE_LIMITS_DEFAULT,
  type DisputeLimits,
} from './dispute-quota.domain';
import {
  disputeUsage,
  findDispute,
  hasOpenDispute,
  insertDispute,
  lockDispute,
  lockDisputeFiler,
  markResolved,
  type DisputeRow,
} from './disputes.repository';
import { replaySettlement } from './replay';

export interface DisputeDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  /** The published key set the replay verifies receipts against. */
  readonly keySet: KeySet;
  /** The per-trader filing caps; `DISPUTE_LIMITS_DEFAULT` when not given. */
  readonly limits?: DisputeLimits;
  /** Called inside a resolution's transaction (the admin audit record commits with it). */
  readonly onResolved?: (trx: Transaction<Database>, before: DisputeRow, after: DisputeRow) => Promise<void>;
}

class TradeNotFound extends DomainError {
  constructor() {
    super('NOT_FOUND', 'Trade not found');
  }
}

/**
 * A trader disputes one of their settled trades: refused when it is not theirs, not settled,
 * settled more than 24 hours ago, already under an open dispute, or when the trader is at one of
 * the filing caps (`DisputeLimits`); otherwise the settlement is replayed at once and the dispute
 * stored with the replay as its evidence.
 *
 * The caps are counted twice. First before the replay, so a trader over them costs one count and
 * not a replay's reads and signature checks. Then where it counts: the count and the insert in one
 * transaction under the trader's filing lock, so parallel filings cannot all see the last free slot.
 */
export async function openDispute(
  deps: DisputeDeps,
  command: { readonly userId: string; readonly tradeId: string; readonly reason: string },
): Promise<DisputeRow> {
  if (command.reason.trim() === '')
    throw new DomainError('VALIDATION', 'Please say what is wrong with this settlement');
  const trade = await findTrade(deps.db, command.tradeId);
  if (!trade || trade.user_id !== command.userId) throw new TradeNotFound();
  const now = deps.clock.nowMs();
  checkDisputable({ settledAtMs: trade.status === 'pending' ? null : trade.settled_at_ms }, now);
  if (await hasOpenDispute(deps.db, trade.id)) throw new DisputeAlreadyOpen();
  const limits = deps.limits ?? DISPUTE_LIMITS_DEFAULT;
  const checkQuota = async (db: Kysely<Database> | Transaction<Database>, atMs: number) =>
    checkDisputeQuota(
      await disputeUsage(db, trade.user_id, atMs - DISPUTE_FILING_WINDOW_MS, limits.filedPerTraderPerDayMax),
      limits,
      atMs,
    );
  await checkQuota(deps.db, now);
  const replay = await replaySettlement(deps.db, trade, deps.keySet, now);
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockDisputeFiler(trx, trade.user_id);
    // Read after the lock: a filing that waited for another is dated after it.
    const filedAtMs = deps.clock.nowMs();
    await checkQuota(trx, filedAtMs);
    return insertDispute(trx, {
      id: randomUUID(),
      tradeId: trade.id,
      userId: trade.user_id,
      pair: trade.pair,
      reason: command.reason,
      replay,
      createdAtMs: filedAtMs,
    });
  });
  if (!row) throw new DisputeAlreadyOpen();
  return row;
}

/**
 * An admin resolves an open dispute: "confirm" (the settlement stands) or "correct" (only when the
 * replay found a different result: the difference is paid or reclaimed through the ledger as the
 * dispute's own idempotent entry). One transaction on the wallet's lock protocol: the trader's
 * wallet, then the dispute row (the claim: a second admin waits, then finds it resolved), then the
 * two accounts. An admin never resolves a dispute of their own trade.
 */
export async function resolveDispute(
  deps: DisputeDeps,
  command: {
    readonly disputeId: string;
    readonly adminId: string;
    readonly decision: 'confirm' | 'correct';
    readonly note: string;
  },
): Promise<DisputeRow> {
  const seen = await findDispute(deps.db, command.disputeId);
  if (!seen) throw new DisputeNotFound();
  if (seen.user_id === command.adminId) throw new OwnDispute();
  return deps.db.transaction().execute(async (trx) => {
    await lockUserWallet(trx, seen.user_id);
    const dispute = await claimRows(trx, () => lockDispute(trx, command.disputeId));
    if (!dispute) throw new DisputeNotFound();
    if (dispute.status !== 'open') throw new DisputeAlreadyResolved();
    const now = deps.clock.nowMs();
    const resolved = await decide(trx, dispute, now);
    await deps.onResolved?.(trx, dispute, resolved);
    return resolved;
  });

  async function decide(trx: Transaction<Database>, dispute: DisputeRow, now: number): Promise<DisputeRow> {
    if (command.decision === 'confirm') {
      return markResolved(trx, dispute.id, {
        status: 'confirmed',
        note: command.note,
        adminId: command.adminId,
        correctionCents: null,
        ledgerEntryId: null,
        resolvedAtMs: now,
      });
    }
    const amount = correctionCents(dispute.replay);
    if (amount === null) throw new NothingToCorrect();
    const trade = await findTrade(trx, dispute.trade_id);
    if (!trade) throw new TradeNotFound();
    const entryId = await postSettlementCorrection(trx, {
      disputeId: dispute.id,
      tradeId: trade.id,
      userId: trade.user_id,
      accountType: trade.account_type,
      amountCents: amount,
    });
    return markResolved(trx, dispute.id, {
      status: 'corrected',
      note: command.note,
      adminId: command.adminId,
      correctionCents: amount,
      ledgerEntryId: entryId,
      resolvedAtMs: now,
    });
  }
}
