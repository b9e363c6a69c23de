import { useId, useState } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { feedStatusReason, type FeedStatus } from '../../../lib/feed-status';
import { formatMoney, formatPrice } from '../../../lib/format';
import { usePlaceTrade, type TradeDuration } from '../api/place-trade';
import { DURATIONS, QUICK_AMOUNTS, parseAmount, potentialProfit } from './trade-amount';
import { TradeHistory, type TradeActions } from './trade-history';

type Direction = 'UP' | 'DOWN';
type AccountType = 'demo' | 'real';

interface Props {
  pair: string;
  currentPrice: number | null;
  payoutPct: number;
  /** The pair's feed status: UP and DOWN are disabled, with the reason shown, while it is not live. */
  feedStatus?: FeedStatus;
  /** Controls the page adds to each trade of the History tab. */
  renderTradeActions?: TradeActions;
}

export function TradePanel({
  pair,
  currentPrice,
  payoutPct,
  feedStatus = 'live',
  renderTradeActions,
}: Props) {
  const [tab, setTab] = useState<'trade' | 'history'>('trade');
  const [accountType, setAccountType] = useState<AccountType>('demo');
  const [amountInput, setAmountInput] = useState('10');
  const [duration, setDuration] = useState<TradeDuration>(60);
  const place = usePlaceTrade();
  const amount = parseAmount(amountInput);
  const halted = feedStatusReason(feedStatus);
  const haltedNoticeId = useId();

  const onPlace = async (direction: Direction) => {
    if (amount === null) {
      toast.error('Please enter a valid amount');
      return;
    }
    if (place.isPending || halted) return;
    try {
      await place.mutateAsync({ pair, direction, amount, duration, account_type: accountType });
      toast.success(`Trade placed: ${direction}`, {
        description: `$${formatMoney(amount)} for ${duration} seconds`,
      });
    } catch (error) {
      console.error('Failed to place trade', error);
      toast.error(errorDetail(error, 'Failed to place trade'));
    }
  };

  return (
    <aside className="trade-panel card">
      <div className="tabs tabs--full" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'trade'}
          className={tab === 'trade' ? 'tab tab--active' : 'tab'}
          onClick={() => setTab('trade')}
        >
          Place Trade
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'history'}
          className={tab === 'history' ? 'tab tab--active' : 'tab'}
          onClick={() => setTab('history')}
        >
          History
        </button>
      </div>

      {tab === 'history' ? (
        <TradeHistory renderActions={renderTradeActions} />
      ) : (
        <div className="trade-panel__form">
          <div className="trade-panel__price">
            <span className="muted">{pair}</span>
            <strong>{currentPrice === null ? '—' : formatPrice(pair, currentPrice)}</strong>
          </div>

          <div className="field">
            <span>Account</span>
            <div className="segmented">
              {(['demo', 'real'] as const).map((type) => (
                <button
                  key={type}
                  type="button"
                  aria-pressed={accountType === type}
                  className={accountType === type ? 'segment segment--active' : 'segment'}
                  onClick={() => setAccountType(type)}
                >
                  {type === 'demo' ? 'Demo' : 'Real'}
                </button>
              ))}
            </div>
          </div>

          <label className="field">
            <span>Amount ($)</span>
            <input
              type="number"
              min="0"
              step="any"
              inputMode="decimal"
              value={amountInput}
              onChange={(event) => setAmountInput(event.target.value)}
            />
          </label>
          <div className="quick-amounts">
            {QUICK_AMOUNTS.map((quick) => (
              <button
                key={quick}
                type="button"
                className="chip"
                onClick={() => setAmountInput(String(quick))}
              >
                {quick}
              </button>
            ))}
          </div>

          <label className="field">
            <span>Duration</span>
            <select
              value={duration}
              onChange={(event) =>
                setDuration(
                  DURATIONS.find((o) => String(o.seconds) === event.target.value)?.seconds ?? duration,
                )
              }
            >
              {DURATIONS.map((option) => (
                <option key={option.seconds} value={option.seconds}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>

          <div className="payout">
            <div>
              <span className="muted">Payout</span>
              <strong>{payoutPct}%</strong>
            </div>
            <div>
              <span className="muted">Profit</span>
              <strong className="text-up">+${formatMoney(potentialProfit(amount ?? 0, payoutPct))}</strong>
            </div>
          </div>

          {halted && (
            <p id={haltedNoticeId} className="trade-panel__notice" role="status">
              <strong>{halted.label}</strong> <span>{halted.description}</span>
            </p>
          )}

          <div className="trade-buttons">
            <button
              type="button"
              className="button button--up"
              disabled={place.isPending || halted !== null}
              aria-describedby={halted ? haltedNoticeId : undefined}
              onClick={() => void onPlace('UP')}
            >
              ▲ UP
            </button>
            <button
              type="button"
              className="button button--down"
              disabled={place.isPending || halted !== null}
              aria-describedby={halted ? haltedNoticeId : undefined}
              onClick={() => void onPlace('DOWN')}
            >
              ▼ DOWN
            </button>
          </div>
        </div>
      )}
    </aside>
  );
}
