import {
  FIBONACCI_LEVELS,
  SOURCES,
  formatFibonacciLevel,
  type AnyIndicatorDefinition,
  type Field,
  type IndicatorConfig,
} from '../lib/indicator-settings';
import { NumberField } from './number-field';

type Values = Record<string, unknown>;

interface Props {
  definition: AnyIndicatorDefinition;
  config: IndicatorConfig;
  onChange(config: IndicatorConfig): void;
}

function SettingField({
  field,
  values,
  onValue,
}: {
  field: Field<Values>;
  values: Values;
  onValue: (key: string, value: unknown) => void;
}) {
  switch (field.kind) {
    case 'number':
      return (
        <NumberField
          label={field.label}
          value={values[field.key] as number}
          min={field.min}
          max={field.max}
          step={field.step}
          onChange={(value) => onValue(field.key, value)}
        />
      );
    case 'color':
      return (
        <label className="field indicator-field indicator-field--color">
          <span>{field.label}</span>
          <input
            type="color"
            value={values[field.key] as string}
            onChange={(event) => onValue(field.key, event.target.value)}
          />
        </label>
      );
    case 'source':
      return (
        <label className="field indicator-field">
          <span>{field.label}</span>
          <select
            value={values[field.key] as string}
            onChange={(event) => onValue(field.key, event.target.value)}
          >
            {SOURCES.map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </select>
        </label>
      );
    case 'checkbox':
      return (
        <label className="checkbox indicator-field--wide">
          <input
            type="checkbox"
            checked={values[field.key] as boolean}
            onChange={(event) => onValue(field.key, event.target.checked)}
          />
          {field.label}
        </label>
      );
    case 'levels':
      return (
        <div className="field indicator-field--wide">
          <span>{field.label}</span>
          <ul className="indicator-card__levels">
            {FIBONACCI_LEVELS.map((level) => (
              <li key={level}>{formatFibonacciLevel(level)}</li>
            ))}
          </ul>
        </div>
      );
  }
}

/** One indicator: its name with an on/off switch, and its settings while it is on. */
export function IndicatorCard({ definition, config, onChange }: Props) {
  const values = config as unknown as Values;
  const fields = definition.fields as readonly Field<Values>[];
  const onValue = (key: string, value: unknown) => onChange({ ...config, [key]: value } as IndicatorConfig);

  return (
    <section
      className={config.enabled ? 'indicator-card indicator-card--on' : 'indicator-card'}
      aria-label={definition.name}
    >
      <label className="indicator-card__header">
        <span className="indicator-card__name">{definition.name}</span>
        <input
          type="checkbox"
          role="switch"
          className="indicator-switch"
          checked={config.enabled}
          onChange={(event) => onChange({ ...config, enabled: event.target.checked })}
        />
      </label>
      {config.enabled && (
        <div className="indicator-card__settings">
          {fields.map((field) => (
            <SettingField
              key={field.kind === 'levels' ? 'levels' : field.key}
              field={field}
              values={values}
              onValue={onValue}
            />
          ))}
        </div>
      )}
    </section>
  );
}
