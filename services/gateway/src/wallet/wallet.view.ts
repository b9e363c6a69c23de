import type { UserBalances } from '@updown/wallet';
import type { PaymentRequest, WalletResponse } from '@updown/schemas/api';
import { centsToDollars } from '../http/money';
import { bonusDaysRemaining, bonusMaxStakeCents } from './bonus.domain';
import type { BonusRow, PaymentRequestRow } from './wallet.repository';

/** The wallet as the API shows it: dollars, and the bonus card's figures computed on the clock. */
export function walletView(
  balances: UserBalances,
  bonus: BonusRow | undefined,
  nowMs: number,
): WalletResponse {
  const active = bonus?.status === 'active';
  return {
    real_balance: centsToDollars(balances.real),
    demo_balance: centsToDollars(balances.demo),
    bonus_balance: centsToDollars(balances.bonus),
    bonus_status: bonus?.status ?? null,
    bonus_turnover_progress: centsToDollars(bonus?.turnover_cents ?? 0),
    bonus_turnover_required: centsToDollars(bonus?.turnover_required_cents ?? 0),
    bonus_expires_at: bonus ? bonus.expires_at.toISOString() : null,
    first_deposit_bonus_used: bonus !== undefined,
    bonus_amount: centsToDollars(bonus?.amount_cents ?? 0),
    bonus_days_remaining: active ? bonusDaysRemaining(bonus.expires_at.getTime(), nowMs) : 0,
    bonus_max_stake: active ? centsToDollars(bonusMaxStakeCents(bonus.amount_cents)) : 0,
  };
}

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
