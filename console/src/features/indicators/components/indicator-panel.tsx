import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  INDICATORS,
  INDICATOR_IDS,
  type IndicatorConfig,
  type IndicatorId,
  type IndicatorSettings,
} from '../lib/indicator-settings';
import { saveIndicatorPreset } from '../lib/preset-storage';
import { IndicatorCard } from './indicator-card';

export const PRESET_SAVED_ALERT = 'Indicator preset saved!';
export const RESET_ALERT = 'All indicators reset!';

export type IndicatorChangeHandler = <Id extends IndicatorId>(id: Id, config: IndicatorSettings[Id]) => void;

interface Props {
  /** The settings the panel opens with; from then on it keeps its own copy. */
  initialSettings: IndicatorSettings;
  /** Told about one indicator at a time: on every toggle and edit, and for each one on Apply. */
  onIndicatorChange: IndicatorChangeHandler;
  onClose(): void;
}

/** The right-side overlay with one card per indicator and Reset, Save Preset and Apply. */
export function IndicatorPanel({ initialSettings, onIndicatorChange, onClose }: Props) {
  const [settings, setSettings] = useState(initialSettings);
  const panelRef = useRef<HTMLElement>(null);

  useEffect(() => {
    panelRef.current?.focus();
  }, []);

  const change = <Id extends IndicatorId>(id: Id, config: IndicatorSettings[Id]) => {
    setSettings((current) => ({ ...current, [id]: config }));
    // Settings of an indicator that is off are hidden, so every change here is a toggle or an
    // edit of an enabled indicator, and the chart follows it at once.
    onIndicatorChange(id, config);
  };

  const notifyAll = (next: IndicatorSettings) => {
    for (const id of INDICATOR_IDS) onIndicatorChange(id, next[id]);
  };

  const onReset = () => {
    const next = { ...settings };
    for (const id of INDICATOR_IDS)
      (next as Record<IndicatorId, IndicatorConfig>)[id] = { ...settings[id], enabled: false };
    setSettings(next);
    notifyAll(next);
    window.alert(RESET_ALERT);
  };

  const onSavePreset = () => {
    try {
      saveIndicatorPreset(settings);
    } catch (error) {
      console.error('Failed to save the indicator preset', error);
      toast.error('Failed to save the indicator preset');
      return;
    }
    console.info('Indicator preset saved', settings);
    window.alert(PRESET_SAVED_ALERT);
  };

  const onApply = () => {
    notifyAll(settings);
    onClose();
  };

  return (
    <aside
      ref={panelRef}
      className="indicator-panel"
      role="dialog"
      aria-labelledby="indicator-panel-title"
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <header className="indicator-panel__header">
        <h2 id="indicator-panel-title">Indicator Settings</h2>
        <button type="button" className="button button--ghost" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </header>
      <div className="indicator-panel__body">
        {INDICATOR_IDS.map((id) => (
          <IndicatorCard
            key={id}
            definition={INDICATORS[id]}
            config={settings[id]}
            onChange={(config) => change(id, config as IndicatorSettings[typeof id])}
          />
        ))}
      </div>
      <footer className="indicator-panel__footer">
        <button type="button" className="button" onClick={onReset}>
          Reset
        </button>
        <button type="button" className="button" onClick={onSavePreset}>
          Save Preset
        </button>
        <button type="button" className="button button--primary" onClick={onApply}>
          Apply
        </button>
      </footer>
    </aside>
  );
}
