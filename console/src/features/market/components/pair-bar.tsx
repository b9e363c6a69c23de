import { feedStatusReason } from '../../../lib/feed-status';
import type { Pair } from '../api/get-pairs';

interface Props {
  /** The active pairs, in the server's order. */
  pairs: Pair[];
  selected: string;
  onSelect: (symbol: string) => void;
}

/**
 * One button per active pair, showing its display name. A pair that cannot be traded now stays
 * selectable (its chart is still worth watching) but says why beside its name, with the full
 * sentence as its tooltip and accessible description.
 */
export function PairBar({ pairs, selected, onSelect }: Props) {
  return (
    <div className="pair-bar">
      {pairs.map((pair) => {
        const active = pair.symbol === selected;
        const reason = feedStatusReason(pair.feed_status);
        return (
          <button
            key={pair.symbol}
            type="button"
            aria-pressed={active}
            className={active ? 'pair-button pair-button--active' : 'pair-button'}
            title={reason?.description}
            aria-description={reason?.description}
            onClick={() => onSelect(pair.symbol)}
          >
            {pair.display_name}
            {reason && (
              <>
                {' '}
                <span className="pair-button__status">{reason.label}</span>
              </>
            )}
          </button>
        );
      })}
    </div>
  );
}
