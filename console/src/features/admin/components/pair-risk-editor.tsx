import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { PairRisk } from '../api/get-risk-overview';
import { useUpdatePairRisk } from '../api/update-pair-risk';
import { draftOfPairRisk, pairRiskBodyOf, REQUIRED_PAIR_FIELDS, type PairRiskDraft } from './risk-draft';
import { useBusyKeys } from './use-busy-keys';
import { saveWithToast } from './save-with-toast';

interface Props {
  pair: PairRisk;
  onSaved: () => void;
  onCancel: () => void;
}

interface FieldSpec {
  key: keyof PairRiskDraft;
  label: string;
  step: string;
  /** Shown in an empty field that may stay empty. */
  none?: string;
}

const FIELDS: readonly FieldSpec[] = [
  { key: 'exposureCapUp', label: 'UP exposure cap ($)', step: '0.01', none: 'No cap' },
  { key: 'exposureCapDown', label: 'DOWN exposure cap ($)', step: '0.01', none: 'No cap' },
  { key: 'skewMaxPct', label: REQUIRED_PAIR_FIELDS.skewMaxPct, step: '1' },
  { key: 'skewFullAt', label: REQUIRED_PAIR_FIELDS.skewFullAt, step: '0.01' },
  { key: 'lossLimit', label: 'Loss limit ($)', step: '0.01', none: 'No breaker' },
  { key: 'lossWindowMin', label: REQUIRED_PAIR_FIELDS.lossWindowMin, step: '1' },
];

/**
 * A pair's six risk settings, edited in place below its row and saved together. It starts from
 * the settings when opened and is not refreshed by the tab's poll; a refused combination stays on
 * screen with the server's reason in the toast.
 */
export function PairRiskEditor({ pair, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState(() => draftOfPairRisk(pair.settings));
  const update = useUpdatePairRisk();
  const { run, isBusy } = useBusyKeys();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = pairRiskBodyOf(draft);
    if ('error' in parsed) {
      toast.error(parsed.error);
      return;
    }
    void run('save', async () => {
      await saveWithToast(
        'update risk settings',
        'Risk settings updated',
        () => update.mutateAsync({ symbol: pair.symbol, settings: parsed.body }),
        onSaved,
      );
    });
  };

  return (
    <form aria-label={`Risk settings of ${pair.symbol}`} onSubmit={onSubmit} noValidate>
      <div className="admin-pair-form__fields">
        {FIELDS.map((field) => (
          <label key={field.key} className="field">
            <span>{field.label}</span>
            <input
              type="number"
              min="0"
              step={field.step}
              inputMode={field.step === '1' ? 'numeric' : 'decimal'}
              value={draft[field.key]}
              placeholder={field.none}
              onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value })}
            />
          </label>
        ))}
        <div className="admin-actions">
          <button type="submit" className="button button--primary" disabled={isBusy('save')}>
            Save Risk Settings
          </button>
          <button type="button" className="button button--outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </form>
  );
}
