import { useId } from 'react';
import type { Schemas } from '../../../lib/api-schema';

type Direction = Schemas['Direction'];

interface Props {
  /** The payout offered now on each direction, percent: what a trade placed now would get. */
  payoutPct: Record<Direction, number>;
  disabled: boolean;
  /** The id of the notice that says why the buttons are disabled, if one is shown. */
  describedBy: string | undefined;
  onPlace: (direction: Direction) => void;
}

const BUTTONS = [
  { direction: 'UP', label: '▲ UP', className: 'button button--up' },
  { direction: 'DOWN', label: '▼ DOWN', className: 'button button--down' },
] as const;

/**
 * UP and DOWN, each with the payout it offers now underneath. The payouts differ while the pair's
 * open real stakes are imbalanced (the heavier side pays less), so each button says its own; the
 * payout sits outside the button, whose name stays exactly 'UP' or 'DOWN' after its arrow.
 */
export function TradeButtons({ payoutPct, disabled, describedBy, onPlace }: Props) {
  const idPrefix = useId();
  return (
    <div className="trade-buttons">
      {BUTTONS.map(({ direction, label, className }) => {
        const payoutId = `${idPrefix}-${direction}`;
        return (
          <div key={direction} className="trade-buttons__option">
            <button
              type="button"
              className={className}
              disabled={disabled}
              aria-describedby={[payoutId, describedBy].filter(Boolean).join(' ')}
              onClick={() => onPlace(direction)}
            >
              {label}
            </button>
            <span
              id={payoutId}
              className="trade-buttons__payout muted small"
              data-testid={`payout-${direction.toLowerCase()}`}
            >
              {`Payout ${payoutPct[direction]}%`}
            </span>
          </div>
        );
      })}
    </div>
  );
}
