import { Link } from 'react-router';
import { toast } from 'sonner';
import { formatMoney } from '../../../lib/format';
import { useCancelBonus } from '../api/cancel-bonus';
import type { Wallet } from '../api/get-wallet';
import { wageringPercent } from './wallet-format';

export const CANCEL_BONUS_CONFIRM = 'Cancel bonus? This will forfeit your bonus and bonus-derived profits.';

/** The active first-deposit bonus: amounts, wagering progress, rules and cancellation. */
export function BonusCard({ wallet }: { wallet: Wallet }) {
  const cancel = useCancelBonus();
  const percent = wageringPercent(wallet.bonus_turnover_progress, wallet.bonus_turnover_required);

  const onCancel = async () => {
    if (!window.confirm(CANCEL_BONUS_CONFIRM)) return;
    try {
      await cancel.mutateAsync();
      toast.success('Bonus cancelled');
    } catch (error) {
      console.error('Failed to cancel bonus', error);
      toast.error('Failed to cancel bonus');
    }
  };

  return (
    <section className="card bonus-card" aria-label="Active bonus">
      <div className="row">
        <div className="bonus-card__title">
          <h2 className="card-title">Active Bonus</h2>
          <span className="badge badge--up">50% First Deposit</span>
        </div>
        <button
          type="button"
          className="button button--outline"
          disabled={cancel.isPending}
          onClick={() => void onCancel()}
        >
          Cancel Bonus
        </button>
      </div>
      <dl className="bonus-card__stats">
        <div>
          <dt className="muted">Bonus Amount</dt>
          <dd>${formatMoney(wallet.bonus_amount)}</dd>
        </div>
        <div>
          <dt className="muted">Turnover Progress</dt>
          <dd>
            ${formatMoney(wallet.bonus_turnover_progress)} / ${formatMoney(wallet.bonus_turnover_required)}
          </dd>
        </div>
        <div>
          <dt className="muted">Max Stake</dt>
          <dd>${formatMoney(wallet.bonus_max_stake)}</dd>
        </div>
        <div>
          <dt className="muted">Days Remaining</dt>
          <dd>{wallet.bonus_days_remaining}</dd>
        </div>
      </dl>
      <div className="field">
        <div className="row">
          <span>Wagering Progress</span>
          <span>{percent.toFixed(1)}%</span>
        </div>
        <div
          className="progress"
          role="progressbar"
          aria-label="Wagering Progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Number(percent.toFixed(1))}
        >
          <div className="progress__fill" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <div>
        <h3 className="card-subtitle">Bonus Rules</h3>
        <ul className="bonus-card__rules">
          <li>Wager 35 times the bonus amount to convert it to withdrawable cash.</li>
          <li>Only settled real-account trades with an expiry of 30 seconds or more count.</li>
          <li>Demo trades, trades under 30 seconds and hedged opposite positions count 0%.</li>
          <li>Maximum stake per trade while the bonus is active: 20% of the bonus amount.</li>
          <li>The bonus expires 30 days after it is credited.</li>
          <li>Withdrawing before wagering is complete forfeits the bonus.</li>
        </ul>
        <Link to="/bonus-policy">Read the full Bonus Policy</Link>
      </div>
    </section>
  );
}
