import type { PaymentRequestRow } from '@updown/wallet';
import { centsToDollars, type PaymentRequest } from '@updown/schemas/api';

/** A deposit or withdrawal request as the API shows it: the trader's wallet and the admin lists. */
export function paymentRequestView(row: PaymentRequestRow): PaymentRequest {
  return {
    id: row.id,
    user_id: row.user_id,
    amount: centsToDollars(row.amount_cents),
    account_type: row.account_type,
    status: row.status,
    created_at: row.created_at.toISOString(),
  };
}
