import { useState, type FormEvent } from 'react';
import type { TraderRiskDefaults } from '../api/get-risk-overview';
import { useUpdateTraderDefaults } from '../api/update-trader-defaults';
import { CapsFields } from './caps-fields';
import { capsBodyOf, draftOfCaps, type CapsDraft } from './risk-draft';
import { formatRiskDollars } from './risk-format';
import { useBusyKeys } from './use-busy-keys';
import { saveWithToast } from './save-with-toast';

/** `Now: at most $2,000.00 staked and 5 open trades per trader.` */
export function describeDefaults(defaults: TraderRiskDefaults): string {
  const caps = [
    defaults.max_open_stake === null ? null : `${formatRiskDollars(defaults.max_open_stake)} staked`,
    defaults.max_open_trades === null ? null : `${defaults.max_open_trades} open trades`,
  ].filter((cap) => cap !== null);
  return caps.length === 0
    ? "Now: no caps on traders' open real trades."
    : `Now: at most ${caps.join(' and ')} per trader.`;
}

/**
 * The caps every trader's open real trades are held to. The fields show the saved caps until the
 * admin edits them, so the tab's 2 s poll never overwrites what is being typed.
 */
export function TraderCapsForm({ defaults }: { defaults: TraderRiskDefaults }) {
  const [draft, setDraft] = useState<CapsDraft | null>(null);
  const update = useUpdateTraderDefaults();
  const { run, isBusy } = useBusyKeys();
  const shown = draft ?? draftOfCaps(defaults);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      await saveWithToast('update trader caps', 'Trader caps updated', async () => {
        await update.mutateAsync(capsBodyOf(shown));
        setDraft(null);
      });
    });
  };

  return (
    <section className="card admin-card">
      <h2 className="card-title">Trader caps</h2>
      <p className="muted small">
        {describeDefaults(defaults)} A trader&apos;s own limits (Users tab) can only be lower. Empty means no
        cap.
      </p>
      <form aria-label="Trader caps" onSubmit={onSubmit} noValidate>
        <div className="admin-pair-form__fields">
          <CapsFields value={shown} onChange={setDraft} emptyMeans="No cap" />
          <button type="submit" className="button button--primary" disabled={isBusy('save')}>
            Save Trader Caps
          </button>
        </div>
      </form>
    </section>
  );
}
