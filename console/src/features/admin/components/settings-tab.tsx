import { useState } from 'react';
import { toast } from 'sonner';
import { useSettings } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { useBusyKeys } from './use-busy-keys';
import { useLoadErrorToast } from './use-load-error-toast';

/** Shown until the settings arrive (spec §9); the approval default is the server's (off). */
export const DEFAULT_PAYOUT_PCT = 80;
const DEFAULT_REQUIRE_DEPOSIT_APPROVAL = false;

export function payoutNote(payoutPct: number): string {
  return `Current: ${payoutPct}% - This affects all new trades`;
}

export const APPROVAL_ON_TEXT = 'Real account deposits require admin approval';
export const APPROVAL_OFF_TEXT = 'Auto-approve all deposits';

export interface SettingsTabProps {
  /** Called after a save, since every pair's payout follows the platform payout. */
  onSettingsChanged?: () => void;
}

/**
 * The payout percentage and the deposit-approval rule. The inputs show the saved values until the
 * admin edits them; both buttons save the whole form, as the API takes both fields together.
 */
export function SettingsTab({ onSettingsChanged }: SettingsTabProps) {
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const { run, isBusy } = useBusyKeys();
  const [payoutDraft, setPayoutDraft] = useState<string | null>(null);
  const [approvalDraft, setApprovalDraft] = useState<boolean | null>(null);
  useLoadErrorToast(settings.error, 'settings');

  const savedPayout = settings.data?.payout_pct ?? DEFAULT_PAYOUT_PCT;
  const payoutInput = payoutDraft ?? String(savedPayout);
  const requireApproval =
    approvalDraft ?? settings.data?.require_deposit_approval ?? DEFAULT_REQUIRE_DEPOSIT_APPROVAL;

  const onSave = () =>
    run('save', async () => {
      // Sent as a decimal number; the server owns the bounds (spec §5).
      const payoutPct = Number.parseFloat(payoutInput);
      try {
        if (Number.isNaN(payoutPct)) throw new Error(`Not a number: '${payoutInput}'`);
        await updateSettings.mutateAsync({
          payout_pct: payoutPct,
          require_deposit_approval: requireApproval,
        });
        setPayoutDraft(null);
        setApprovalDraft(null);
        toast.success('Settings updated successfully');
        onSettingsChanged?.();
      } catch (error) {
        console.error('Failed to update settings', error);
        toast.error('Failed to update settings');
      }
    });

  const saving = isBusy('save');
  return (
    <section className="card admin-card admin-settings">
      <h2 className="card-title">Platform Settings</h2>
      <div className="field">
        <label htmlFor="admin-payout-pct">Payout Percentage (%)</label>
        <div className="admin-inline">
          <input
            id="admin-payout-pct"
            type="number"
            step="any"
            inputMode="decimal"
            value={payoutInput}
            onChange={(event) => setPayoutDraft(event.target.value)}
          />
          <button
            type="button"
            className="button button--primary"
            disabled={saving}
            onClick={() => void onSave()}
          >
            Update
          </button>
        </div>
        <p className="muted small">{payoutNote(savedPayout)}</p>
      </div>
      <div className="admin-toggle">
        <div>
          <span id="admin-approval-label" className="admin-toggle__label">
            Require Deposit Approval
          </span>
          <p className="muted small">{requireApproval ? APPROVAL_ON_TEXT : APPROVAL_OFF_TEXT}</p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={requireApproval}
          aria-labelledby="admin-approval-label"
          className={requireApproval ? 'admin-switch admin-switch--on' : 'admin-switch'}
          onClick={() => setApprovalDraft(!requireApproval)}
        >
          <span className="admin-switch__thumb" />
        </button>
      </div>
      <button
        type="button"
        className="button button--primary admin-settings__save"
        disabled={saving}
        onClick={() => void onSave()}
      >
        Save Settings
      </button>
    </section>
  );
}
