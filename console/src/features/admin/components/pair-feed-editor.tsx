import { useState, type FormEvent } from 'react';
import type { MarketPair } from '@updown/schemas/api';
import { useUpdatePairFeed } from '../api/update-pair-feed';
import { draftOfPair, feedBodyOf } from './feed-draft';
import { FeedFields } from './feed-fields';
import { useBusyKeys } from './use-busy-keys';
import { saveWithToast } from './save-with-toast';

interface Props {
  pair: MarketPair;
  /** The new feed was saved: the editor is done. */
  onSaved: () => void;
  onCancel: () => void;
}

/**
 * One pair's feed, edited in place below its row and saved as a whole. A refused configuration
 * stays on screen with the server's reason in the toast, so the admin can correct it.
 */
export function PairFeedEditor({ pair, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState(() => draftOfPair(pair));
  const updateFeed = useUpdatePairFeed();
  const { run, isBusy } = useBusyKeys();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      await saveWithToast(
        'update feed',
        'Feed updated',
        () => updateFeed.mutateAsync({ symbol: pair.symbol, feed: feedBodyOf(draft) }),
        onSaved,
      );
    });
  };

  return (
    <form className="admin-feed-editor" aria-label={`Feed of ${pair.symbol}`} onSubmit={onSubmit} noValidate>
      <div className="admin-pair-form__fields">
        <FeedFields value={draft} onChange={setDraft} />
        <div className="admin-actions">
          <button type="submit" className="button button--primary" disabled={isBusy('save')}>
            Save Feed
          </button>
          <button type="button" className="button button--outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </form>
  );
}
