import { useId, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorDetail } from '../../../lib/api-client';
import type { Schemas } from '../../../lib/api-schema';
import { feedStatusReason, type FeedStatus } from '../../../lib/feed-status';
import { formatMoney, formatPrice } from '../../../lib/format';
import { usePlaceTrade, type TradeDuration } from '../api/place-trade';
import { DURATIONS, QUICK_AMOUNTS, parseAmount, potentialProfit } from './trade-amount';
import { TradeButtons } from './trade-buttons';
import { TradeHistory, type TradeActions } from './trade-history';

type Direction = Schemas['Direction'];
type AccountType = 'demo' | 'real';
type RealTrading = Schemas['MarketPair']['real_trading'];

/**
 * Refusals that mean the pair list the panel shows is out of date: the payout moved (skew) or the
 * loss breaker suspended real trading since the last poll. The page reloads the pairs at once
 * rather than leave the old payout on screen for up to a poll.
 */
const MARKET_STALE_CODES: ReadonlySet<string> = new Set(['PAYOUT_CHANGED', 'PAIR_SUSPENDED']);

export function realSuspendedNotice(pair: string): string {
  return `Real trading on ${pair} is suspended by risk controls; demo trading is still open`;
}

interface Props {
  pair: string;
  currentPrice: number | null;
  /** The pair's payout, before any skew: the payout display and its computed profit. */
  payoutPct: number;
  /** The payouts offered now on UP and on DOWN (lower on the heavier side); default `payoutPct`. */
  payoutUpPct?: number;
  payoutDownPct?: number;
  /** The pair's feed status: UP and DOWN are disabled, with the reason shown, while it is not live. */
  feedStatus?: FeedStatus;
  /** `suspended`: real UP and DOWN are disabled, with a notice; demo trading stays open. */
  realTrading?: RealTrading;
  /** A placement was refused because the pair's payout or status changed: reload the pairs. */
  onMarketStale?: () => void;
  /** Controls the page adds to each trade of the History tab. */
  renderTradeActions?: TradeActions;
}

export function TradePanel({
  pair,
  currentPrice,
  payoutPct,
  payoutUpPct = payoutPct,
  payoutDownPct = payoutPct,
  feedStatus = 'live',
  realTrading = 'open',
  onMarketStale,
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
  const suspended = accountType === 'real' && realTrading === 'suspended';
  const suspendedNoticeId = useId();
  const payouts: Record<Direction, number> = { UP: payoutUpPct, DOWN: payoutDownPct };
  const blocked = halted !== null || suspended;
  const noticeIds = [halted && haltedNoticeId, suspended && suspendedNoticeId].filter(Boolean).join(' ');

  const onPlace = async (direction: Direction) => {
    if (amount === null) {
      toast.error('Please enter a valid amount');
      return;
    }
    if (place.isPending || blocked) return;
    try {
      // The payout the trader sees on the button: the server refuses rather than pay less.
      await place.mutateAsync({
        pair,
        direction,
        amount,
        duration,
        account_type: accountType,
        payout_pct: payouts[direction],
      });
      toast.success(`Trade placed: ${direction}`, {
        description: `$${formatMoney(amount)} for ${duration} seconds`,
      });
    } catch (error) {
      console.error('Failed to place trade', error);
      toast.error(errorDetail(error, 'Failed to place trade'));
      if (error instanceof ApiError && error.code !== undefined && MARKET_STALE_CODES.has(error.code)) {
        onMarketStale?.();
      }
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

          {suspended && (
            <p id={suspendedNoticeId} className="trade-panel__notice" role="status">
              {realSuspendedNotice(pair)}
            </p>
          )}

          <TradeButtons
            payoutPct={payouts}
            disabled={place.isPending || blocked}
            describedBy={noticeIds === '' ? undefined : noticeIds}
            onPlace={(direction) => void onPlace(direction)}
          />
        </div>
      )}
    </aside>
  );
}
