import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useChangePassword } from '../api/change-password';

const EMPTY = { current: '', next: '' };

/**
 * The current password and a new one. The server checks the new one's rules and says which it
 * breaks, so the form only requires both fields. Other devices are signed out by the change; this
 * one stays in.
 */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const [fields, setFields] = useState(EMPTY);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await change.mutateAsync({ current_password: fields.current, new_password: fields.next });
      setFields(EMPTY);
      toast.success('Password changed. Other devices are signed out.');
    } catch (error) {
      console.error('Changing the password failed', error);
      toast.error(errorDetail(error, 'Failed to change password'));
    }
  };

  return (
    <form className="form security-card__form" onSubmit={(event) => void onSubmit(event)}>
      <label className="field">
        <span>Current password</span>
        <input
          type="password"
          autoComplete="current-password"
          required
          value={fields.current}
          onChange={(event) => setFields({ ...fields, current: event.target.value })}
        />
      </label>
      <label className="field">
        <span>New password</span>
        <input
          type="password"
          autoComplete="new-password"
          required
          value={fields.next}
          onChange={(event) => setFields({ ...fields, next: event.target.value })}
        />
      </label>
      <button type="submit" className="button button--primary" disabled={change.isPending}>
        {change.isPending ? 'Please wait...' : 'Change password'}
      </button>
    </form>
  );
}
