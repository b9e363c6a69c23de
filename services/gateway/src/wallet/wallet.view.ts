import { bonusDaysRemaining, bonusMaxStakeCents, type BonusRow, type UserBalances } from '@updown/wallet';
import { centsToDollars, type WalletResponse } from '@updown/schemas/api';

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
