import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useAddPair } from '../api/add-pair';
import { EMPTY_FEED_DRAFT, feedBodyOf } from './feed-draft';
import { FeedFields } from './feed-fields';
import { useBusyKeys } from './use-busy-keys';

/**
 * Symbol and display name, then the optional feed: the provider defaults to OTC, with no
 * reference, so a pair added with only the two required fields is priced as before.
 */
export function AddPairForm({ onAdded }: { onAdded?: () => void }) {
  const [symbol, setSymbol] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [feed, setFeed] = useState(EMPTY_FEED_DRAFT);
  const addPair = useAddPair();
  const { run, isBusy } = useBusyKeys();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const fields = { symbol: symbol.trim(), display_name: displayName.trim() };
    if (!fields.symbol || !fields.display_name) {
      toast.error('Please fill all fields');
      return;
    }
    void run('add', async () => {
      try {
        await addPair.mutateAsync({ ...fields, ...feedBodyOf(feed) });
        toast.success('Trading pair added successfully');
        setSymbol('');
        setDisplayName('');
        setFeed(EMPTY_FEED_DRAFT);
        onAdded?.();
      } catch (error) {
        console.error('Failed to add pair', error);
        toast.error(errorDetail(error, 'Failed to add pair'));
      }
    });
  };

  return (
    <form className="card admin-pair-form" aria-label="Add Trading Pair" onSubmit={onSubmit} noValidate>
      <h2 className="card-title">Add Trading Pair</h2>
      <div className="admin-pair-form__fields">
        <label className="field">
          <span>Symbol</span>
          <input
            value={symbol}
            placeholder="e.g. EURUSD"
            autoCapitalize="characters"
            spellCheck={false}
            onChange={(event) => setSymbol(event.target.value.toUpperCase())}
          />
        </label>
        <label className="field">
          <span>Display Name</span>
          <input
            value={displayName}
            placeholder="e.g. EUR/USD"
            onChange={(event) => setDisplayName(event.target.value)}
          />
        </label>
        <FeedFields value={feed} onChange={setFeed} />
        <button type="submit" className="button button--primary" disabled={isBusy('add')}>
          Add Pair
        </button>
      </div>
    </form>
  );
}
