import {
  DEFAULT_INDICATOR_SETTINGS,
  INDICATORS,
  INDICATOR_IDS,
  SOURCES,
  clampToField,
  type Field,
  type IndicatorConfig,
  type IndicatorId,
  type IndicatorSettings,
} from './indicator-settings';

/** Versioned so a later shape can be told apart from this one instead of being misread. */
export const INDICATOR_PRESET_KEY = 'updown.indicator-preset.v1';

const COLOR = /^#[0-9a-f]{6}$/i;

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One stored field, or the default when it is missing, mistyped or out of bounds. */
function readField(field: Field<Loose>, stored: Loose, fallback: Loose): [string, unknown] | null {
  if (field.kind === 'levels') return null;
  const value = stored[field.key];
  switch (field.kind) {
    case 'number':
      return [
        field.key,
        typeof value === 'number' && Number.isFinite(value)
          ? clampToField(value, field)
          : fallback[field.key],
      ];
    case 'color':
      return [
        field.key,
        typeof value === 'string' && COLOR.test(value) ? value.toLowerCase() : fallback[field.key],
      ];
    case 'source':
      return [field.key, SOURCES.includes(value as never) ? value : fallback[field.key]];
    case 'checkbox':
      return [field.key, typeof value === 'boolean' ? value : fallback[field.key]];
  }
}

function readIndicator<Id extends IndicatorId>(id: Id, stored: unknown): IndicatorSettings[Id] {
  const fallback = DEFAULT_INDICATOR_SETTINGS[id];
  if (!isObject(stored)) return fallback;
  const fields = INDICATORS[id].fields as readonly Field<Loose>[];
  const entries = fields.flatMap((field) => {
    const entry = readField(field, stored, fallback as unknown as Loose);
    return entry ? [entry] : [];
  });
  const enabled = typeof stored.enabled === 'boolean' ? stored.enabled : fallback.enabled;
  return { ...fallback, ...Object.fromEntries(entries), enabled } as IndicatorSettings[Id];
}

/**
 * The saved preset, or null when there is none. A stored value that is missing, mistyped or out
 * of the spec's bounds (an older build, a hand edit) falls back to that setting's default rather
 * than reaching the chart.
 */
export function loadIndicatorPreset(storage: Storage = window.localStorage): IndicatorSettings | null {
  let parsed: unknown;
  try {
    const raw = storage.getItem(INDICATOR_PRESET_KEY);
    if (raw === null) return null;
    parsed = JSON.parse(raw);
  } catch (error) {
    console.error('Failed to read the indicator preset', error);
    return null;
  }
  if (!isObject(parsed)) return null;
  const settings = {} as Record<IndicatorId, IndicatorConfig>;
  for (const id of INDICATOR_IDS) settings[id] = readIndicator(id, parsed[id]);
  return settings as IndicatorSettings;
}

export function saveIndicatorPreset(
  settings: IndicatorSettings,
  storage: Storage = window.localStorage,
): void {
  storage.setItem(INDICATOR_PRESET_KEY, JSON.stringify(settings));
}
