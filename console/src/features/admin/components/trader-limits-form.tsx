import { useState, type FormEvent } from 'react';
import type { AdminUser } from '../api/get-users';
import { useUpdateTraderLimits } from '../api/update-trader-limits';
import { CapsFields } from './caps-fields';
import { capsBodyOf, draftOfCaps } from './risk-draft';
import { useBusyKeys } from './use-busy-keys';
import { saveWithToast } from './save-with-toast';

interface Props {
  user: AdminUser;
  onSaved: () => void;
  onCancel: () => void;
}

/**
 * A trader's own caps, below the defaults of the Risk tab; an empty field falls back to the
 * default. A cap above the default is refused with the server's reason in the toast.
 */
export function TraderLimitsForm({ user, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState(() => draftOfCaps(user.limits));
  const update = useUpdateTraderLimits();
  const { run, isBusy } = useBusyKeys();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      await saveWithToast(
        'update trader limits',
        'Trader limits updated',
        () => update.mutateAsync({ userId: user.id, limits: capsBodyOf(draft) }),
        onSaved,
      );
    });
  };

  return (
    <form aria-label={`Limits of ${user.name}`} onSubmit={onSubmit} noValidate>
      <div className="admin-pair-form__fields">
        <CapsFields value={draft} onChange={setDraft} emptyMeans="Default" />
        <div className="admin-actions">
          <button type="submit" className="button button--primary" disabled={isBusy('save')}>
            Save Limits
          </button>
          <button type="button" className="button button--outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </form>
  );
}
