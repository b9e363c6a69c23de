import type { Schemas } from './api-schema';
import { formatSignedDollars } from './format';

/** One checked step, as the verifier and the server's replay report it. */
export interface CheckStep {
  id: string;
  title: string;
  status: 'ok' | 'fail' | 'warn' | 'skipped';
  detail: string;
}

/**
 * A trader's dispute (`/api/disputes`), with the server's replay of the settlement made when it
 * was filed; money in dollars. The admin's view adds the trader and who resolved it.
 */
export type Dispute = Schemas['Dispute'];
export type AdminDispute = Schemas['AdminDispute'];
export type DisputeStatus = Dispute['status'];

export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['open', 'confirmed', 'corrected'];

/** The most characters a dispute's reason or a resolution's note may have (the server's limit). */
export const DISPUTE_TEXT_CHARS_MAX = 500;

/** `'Dispute open'`, `'Dispute confirmed'`, `'Dispute corrected by +$8.00'`. */
export function disputeStatusLabel(dispute: Pick<Dispute, 'status' | 'correction'>): string {
  if (dispute.status === 'corrected')
    return `Dispute corrected by ${formatSignedDollars(dispute.correction ?? 0)}`;
  return `Dispute ${dispute.status}`;
}

/** The badge of a status: open waits on an admin, confirmed stands, corrected changed the money. */
export function disputeBadgeClass(status: DisputeStatus): string {
  if (status === 'open') return 'badge badge--pending';
  if (status === 'confirmed') return 'badge badge--up';
  return 'badge badge--neutral';
}
