import type { CapsDraft } from './risk-draft';

interface Props {
  value: CapsDraft;
  onChange: (draft: CapsDraft) => void;
  /** What an empty field means here: no cap (the defaults), or the default (a trader's own). */
  emptyMeans: string;
}

/** The two caps on a trader's open real trades: their total stake and how many. */
export function CapsFields({ value, onChange, emptyMeans }: Props) {
  return (
    <>
      <label className="field">
        <span>Max open stake ($)</span>
        <input
          type="number"
          min="1"
          step="0.01"
          inputMode="decimal"
          value={value.maxOpenStake}
          placeholder={emptyMeans}
          onChange={(event) => onChange({ ...value, maxOpenStake: event.target.value })}
        />
      </label>
      <label className="field">
        <span>Max open trades</span>
        <input
          type="number"
          min="1"
          step="1"
          inputMode="numeric"
          value={value.openTradesMax}
          placeholder={emptyMeans}
          onChange={(event) => onChange({ ...value, openTradesMax: event.target.value })}
        />
      </label>
    </>
  );
}
