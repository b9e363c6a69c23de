import { formatMoney, formatPrice } from '../../../lib/format';
import {
  entryClock,
  expiryClock,
  finalPnl,
  formatSignedMoney,
  formatSignedPct,
  pnlAt,
  priceChangePct,
  profitPctAt,
  tradeResult,
  type ChartTrade,
} from './chart-trade-math';

/** Where the tooltip points, in the chart panel's coordinates, and which side of it it opens on. */
export interface TooltipAnchor {
  x: number;
  y: number;
  place: 'above' | 'below';
}

/** Price moves on forex pairs are tiny, so the change keeps three decimals. */
const PRICE_CHANGE_DECIMALS = 3;

function signClass(value: number | null): string | undefined {
  if (value === null || value === 0) return undefined;
  return value > 0 ? 'text-up' : 'text-down';
}

function Row({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className="chart-trade-tooltip__row">
      <dt>{label}</dt>
      <dd className={className}>{value}</dd>
    </div>
  );
}

/** The live figures of an open trade; without a current price (another pair) they are unknown. */
function PendingRows({ trade, price }: { trade: ChartTrade; price: number | null }) {
  const pnl = price === null ? null : pnlAt(trade, price);
  return (
    <>
      <Row
        label="Current P/L"
        value={pnl === null ? '—' : formatSignedMoney(pnl)}
        className={signClass(pnl)}
      />
      <Row
        label="Profit %"
        value={price === null ? '—' : formatSignedPct(profitPctAt(trade, price))}
        className={signClass(pnl)}
      />
      <Row
        label="Price Change %"
        value={
          price === null
            ? '—'
            : formatSignedPct(priceChangePct(trade.entry_price, price), PRICE_CHANGE_DECIMALS)
        }
      />
    </>
  );
}

interface Props {
  id: string;
  trade: ChartTrade;
  /** The chart's current price when the trade is on the chart's pair, otherwise null. */
  price: number | null;
  anchor: TooltipAnchor;
}

/** Everything about one trade, shown while its badge, entry marker or Active Trades row is hovered. */
export function ChartTradeTooltip({ id, trade, price, anchor }: Props) {
  const pending = trade.status === 'pending';
  const result = tradeResult(trade.status);
  const final = pending ? null : finalPnl(trade);
  return (
    <div
      id={id}
      role="tooltip"
      className={`chart-trade-tooltip chart-trade-tooltip--${anchor.place}`}
      style={{ left: anchor.x, top: anchor.y }}
    >
      <div className="chart-trade-tooltip__title">{trade.pair}</div>
      <dl className="chart-trade-tooltip__rows">
        <Row
          label="Direction"
          value={trade.direction}
          className={trade.direction === 'UP' ? 'text-up' : 'text-down'}
        />
        <Row
          label="Result"
          value={result}
          className={result === 'WIN' ? 'text-up' : result === 'LOSS' ? 'text-down' : undefined}
        />
        <Row label="Entry Price" value={formatPrice(trade.pair, trade.entry_price)} />
        <Row label="Entry Time" value={entryClock(trade)} />
        <Row label="Expiry Time" value={expiryClock(trade)} />
        <Row label="Amount" value={`$${formatMoney(trade.amount)}`} />
        <Row label="Payout" value={`${trade.payout_pct}%`} />
        {pending ? (
          <PendingRows trade={trade} price={price} />
        ) : (
          <Row
            label="Final P/L"
            value={final === null ? '—' : formatSignedMoney(final)}
            className={signClass(final)}
          />
        )}
      </dl>
    </div>
  );
}
