import { useState } from 'react';
import { clampToField } from '../lib/indicator-settings';

interface Props {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange(value: number): void;
}

/**
 * A number input held to `[min, max]` on `step`. A value past the maximum is clamped at once
 * (more digits cannot bring it back); one under the minimum may be the start of a longer number
 * ("7" on the way to "75" when the minimum is 50), so it waits for blur or Enter.
 */
export function NumberField({ label, value, min, max, step, onChange }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const bounds = { min, max, step };

  const commit = (text: string) => {
    setDraft(null);
    const parsed = Number(text);
    if (text.trim() === '' || !Number.isFinite(parsed)) return;
    const next = clampToField(parsed, bounds);
    if (next !== value) onChange(next);
  };

  const onInput = (text: string) => {
    const parsed = Number(text);
    if (text.trim() === '' || !Number.isFinite(parsed) || parsed < min) {
      setDraft(text);
      return;
    }
    if (parsed > max) {
      commit(text);
      return;
    }
    // In bounds: the chart follows as the user types; the text stays as typed until blur.
    setDraft(text);
    const next = clampToField(parsed, bounds);
    if (next !== value) onChange(next);
  };

  return (
    <label className="field indicator-field">
      <span>{label}</span>
      <input
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={draft ?? String(value)}
        onChange={(event) => onInput(event.target.value)}
        onBlur={(event) => commit(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(event.currentTarget.value);
        }}
      />
    </label>
  );
}
