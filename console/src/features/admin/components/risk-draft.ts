import type { PairRisk } from '../api/get-risk-overview';
import type { PairRiskBody } from '../api/update-pair-risk';
import type { TraderCapsBody } from '../api/update-trader-defaults';

/**
 * The risk forms as typed: every field a string, an empty one meaning "none" where the setting
 * may be null. The server owns the bounds (a refusal's `detail` names the field); the console only
 * turns the text into the numbers or nulls the API takes.
 */
export interface PairRiskDraft {
  exposureCapUp: string;
  exposureCapDown: string;
  skewMaxPct: string;
  skewFullAt: string;
  lossLimit: string;
  lossWindowMin: string;
}

export interface CapsDraft {
  maxOpenStake: string;
  openTradesMax: string;
}

function textOf(value: number | null): string {
  return value === null ? '' : String(value);
}

/** `''` → null (none); anything else a number, NaN for text that is not one. */
function optionalNumber(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

export function draftOfPairRisk(settings: PairRisk['settings']): PairRiskDraft {
  return {
    exposureCapUp: textOf(settings.exposure_cap_up),
    exposureCapDown: textOf(settings.exposure_cap_down),
    skewMaxPct: String(settings.skew_max_pct),
    skewFullAt: String(settings.skew_full_at),
    lossLimit: textOf(settings.loss_limit),
    lossWindowMin: String(settings.loss_window_min),
  };
}

/** The labels of the settings that cannot be "none", for the message when one is left empty. */
export const REQUIRED_PAIR_FIELDS = {
  skewMaxPct: 'Max skew (points)',
  skewFullAt: 'Full skew at imbalance ($)',
  lossWindowMin: 'Loss window (min)',
} as const;

/** The body to send, or the message for the first required field left empty or not a number. */
export function pairRiskBodyOf(draft: PairRiskDraft): { body: PairRiskBody } | { error: string } {
  for (const [field, label] of Object.entries(REQUIRED_PAIR_FIELDS)) {
    const value = optionalNumber(draft[field as keyof typeof REQUIRED_PAIR_FIELDS]);
    if (value === null || Number.isNaN(value)) return { error: `Enter a number for ${label}` };
  }
  return {
    body: {
      exposure_cap_up: optionalNumber(draft.exposureCapUp),
      exposure_cap_down: optionalNumber(draft.exposureCapDown),
      skew_max_pct: Number(draft.skewMaxPct),
      skew_full_at: Number(draft.skewFullAt),
      loss_limit: optionalNumber(draft.lossLimit),
      loss_window_min: Number(draft.lossWindowMin),
    },
  };
}

export function draftOfCaps(caps: TraderCapsBody | null | undefined): CapsDraft {
  return {
    maxOpenStake: textOf(caps?.max_open_stake ?? null),
    openTradesMax: textOf(caps?.max_open_trades ?? null),
  };
}

/** Empty fields are null: no cap (defaults) or the default's cap (a trader's own limits). */
export function capsBodyOf(draft: CapsDraft): TraderCapsBody {
  return {
    max_open_stake: optionalNumber(draft.maxOpenStake),
    max_open_trades: optionalNumber(draft.openTradesMax),
  };
}
