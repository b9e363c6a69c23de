import { useRiskOverview, type PairRisk } from '../api/get-risk-overview';
import { useResumePair } from '../api/resume-pair';
import { PAIR_RISK_COLUMNS, PairRiskRow } from './pair-risk-row';
import { saveWithToast } from './save-with-toast';
import { TopTraders } from './top-traders';
import { TraderCapsForm } from './trader-caps-form';
import { useBusyKeys } from './use-busy-keys';
import { useFirstError } from './use-first-error';
import { useLoadErrorToast } from './use-load-error-toast';

export interface RiskTabProps {
  /** A pair was resumed or its settings saved: the traders' pair list (status, payouts) should reload. */
  onMarketChanged?: () => void;
}

/**
 * The house's risk, polled every 2 s while open: each pair's exposure per direction against its
 * cap, the payouts offered, the house's P/L and the loss breaker (with Resume), each pair's
 * settings; the caps every trader is held to; and the most toxic traders.
 */
export function RiskTab({ onMarketChanged }: RiskTabProps) {
  const overview = useRiskOverview();
  const resume = useResumePair();
  const { run, isBusy } = useBusyKeys();
  useLoadErrorToast(useFirstError(overview.error), 'risk');

  const onResume = (pair: PairRisk) =>
    run(pair.symbol, () =>
      saveWithToast(
        'resume trading',
        'Trading resumed',
        () => resume.mutateAsync(pair.symbol),
        onMarketChanged,
      ),
    );

  if (overview.data === undefined) {
    return (
      <section className="card admin-card">
        <h2 className="card-title">Risk</h2>
        <p className="muted">Loading...</p>
      </section>
    );
  }
  const { pairs, trader_defaults, top_traders } = overview.data;
  return (
    <div className="admin-stack">
      <section className="card admin-card">
        <h2 className="card-title">Pair Exposure</h2>
        {pairs.length === 0 ? (
          <p className="muted">No trading pairs</p>
        ) : (
          <div className="table-scroll">
            <table className="table admin-table">
              <thead>
                <tr>
                  {PAIR_RISK_COLUMNS.map((column) => (
                    <th key={column}>{column}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {pairs.map((pair) => (
                  <PairRiskRow
                    key={pair.symbol}
                    pair={pair}
                    busy={isBusy(pair.symbol)}
                    onResume={() => void onResume(pair)}
                    onSaved={() => onMarketChanged?.()}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <TraderCapsForm defaults={trader_defaults} />
      <TopTraders traders={top_traders} />
    </div>
  );
}
