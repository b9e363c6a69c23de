import { useState } from 'react';
import type { MarketPair } from '@updown/schemas/api';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useAdminPairs } from '../api/get-admin-pairs';
import { useDeletePair } from '../api/delete-pair';
import { useUpdatePair } from '../api/update-pair';
import { AddPairForm } from './add-pair-form';
import { feedLabel } from './feed-draft';
import { PairFeedEditor } from './pair-feed-editor';
import { useBusyKeys } from './use-busy-keys';
import { useLoadErrorToast } from './use-load-error-toast';

export function deletePairConfirmText(symbol: string): string {
  return `Delete ${symbol}? This cannot be undone.`;
}

const COLUMNS = 5;

export interface PairsTabProps {
  /**
   * Called after a pair was added, toggled, deleted or given another feed, so the traders' pair
   * list can reload.
   */
  onPairsChanged?: () => void;
}

interface PairRowProps {
  pair: MarketPair;
  /** A change to this pair is in flight. */
  busy: boolean;
  onToggle: () => void;
  onDelete: () => void;
  onFeedSaved: () => void;
}

/** The feed and, when the pair has one, the reference its prices are checked against. */
function ProviderCell({ pair }: { pair: MarketPair }) {
  const spread = pair.reference_spread_bps === null ? '' : ` (${pair.reference_spread_bps} bps)`;
  return (
    <td>
      <div>{feedLabel(pair.provider, pair.provider_symbol)}</div>
      {pair.reference_provider && (
        <div className="muted small">
          {`Reference: ${feedLabel(pair.reference_provider, pair.reference_symbol)}${spread}`}
        </div>
      )}
    </td>
  );
}

function PairRow({ pair, busy, onToggle, onDelete, onFeedSaved }: PairRowProps) {
  const [editingFeed, setEditingFeed] = useState(false);
  return (
    <>
      <tr>
        <td className="admin-table__strong">{pair.symbol}</td>
        <td>{pair.display_name}</td>
        <ProviderCell pair={pair} />
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
              className="button button--outline admin-button--small"
              aria-expanded={editingFeed}
              onClick={() => setEditingFeed((open) => !open)}
            >
              Feed
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
      {editingFeed && (
        <tr className="admin-pairs__feed-row">
          <td colSpan={COLUMNS}>
            <PairFeedEditor
              pair={pair}
              onCancel={() => setEditingFeed(false)}
              onSaved={() => {
                setEditingFeed(false);
                onFeedSaved();
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}

/** The add form and every pair, with enable/disable, its feed and delete per row. */
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
                    onFeedSaved={() => onPairsChanged?.()}
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
