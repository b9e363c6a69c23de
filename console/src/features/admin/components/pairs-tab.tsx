import type { MarketPair } from '@updown/schemas/api';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useAdminPairs } from '../api/get-admin-pairs';
import { useDeletePair } from '../api/delete-pair';
import { useUpdatePair } from '../api/update-pair';
import { AddPairForm } from './add-pair-form';
import { useBusyKeys } from './use-busy-keys';
import { useLoadErrorToast } from './use-load-error-toast';

export function deletePairConfirmText(symbol: string): string {
  return `Delete ${symbol}? This cannot be undone.`;
}

export interface PairsTabProps {
  /** Called after a pair was added, toggled or deleted, so the traders' pair list can reload. */
  onPairsChanged?: () => void;
}

interface PairRowProps {
  pair: MarketPair;
  /** A change to this pair is in flight. */
  busy: boolean;
  onToggle: () => void;
  onDelete: () => void;
}

function PairRow({ pair, busy, onToggle, onDelete }: PairRowProps) {
  return (
    <tr>
      <td className="admin-table__strong">{pair.symbol}</td>
      <td>{pair.display_name}</td>
      <td>{pair.provider}</td>
      <td>
        <span className={pair.active ? 'badge badge--up' : 'badge badge--down'}>
          {pair.active ? 'Active' : 'Disabled'}
        </span>
      </td>
      <td>
        <div className="admin-actions">
          <button
            type="button"
            className="button button--outline admin-button--small"
            disabled={busy}
            onClick={onToggle}
          >
            {pair.active ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className="button admin-button--small admin-button--danger"
            disabled={busy}
            onClick={onDelete}
          >
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}

/** The add form and every pair, with enable/disable and delete per row. */
export function PairsTab({ onPairsChanged }: PairsTabProps) {
  const pairs = useAdminPairs();
  const updatePair = useUpdatePair();
  const deletePair = useDeletePair();
  const { run, isBusy } = useBusyKeys();
  useLoadErrorToast(pairs.error, 'pairs');

  const onToggle = (pair: MarketPair) =>
    run(pair.symbol, async () => {
      const active = !pair.active;
      try {
        await updatePair.mutateAsync({ symbol: pair.symbol, active });
        toast.success(active ? 'Pair enabled' : 'Pair disabled');
        onPairsChanged?.();
      } catch (error) {
        console.error('Failed to update pair', error);
        toast.error('Failed to update pair');
      }
    });

  const onDelete = (pair: MarketPair) =>
    run(pair.symbol, async () => {
      if (!window.confirm(deletePairConfirmText(pair.symbol))) return;
      try {
        await deletePair.mutateAsync(pair.symbol);
        toast.success('Pair deleted successfully');
        onPairsChanged?.();
      } catch (error) {
        console.error('Failed to delete pair', error);
        toast.error(errorDetail(error, 'Failed to delete pair'));
      }
    });

  const rows = pairs.data ?? [];
  return (
    <div className="admin-stack">
      <AddPairForm onAdded={onPairsChanged} />
      <section className="card admin-card">
        <h2 className="card-title">Trading Pairs</h2>
        {pairs.isPending ? (
          <p className="muted">Loading...</p>
        ) : rows.length === 0 ? (
          <p className="muted">No trading pairs</p>
        ) : (
          <div className="table-scroll">
            <table className="table admin-table">
              <thead>
                <tr>
                  <th>Symbol</th>
                  <th>Display Name</th>
                  <th>Provider</th>
                  <th>Status</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((pair) => (
                  <PairRow
                    key={pair.symbol}
                    pair={pair}
                    busy={isBusy(pair.symbol)}
                    onToggle={() => void onToggle(pair)}
                    onDelete={() => void onDelete(pair)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
