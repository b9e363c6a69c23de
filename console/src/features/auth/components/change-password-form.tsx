import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '../../../lib/api-client';
import { useChangePassword, type ChangePasswordInput } from '../api/change-password';
import { CodeField } from './code-field';
import { CODE_LENGTH } from './two-factor-page';

const EMPTY = { current: '', next: '', code: '' };

/**
 * The current password and a new one, and with two-factor on the authenticator's current code: the
 * change is a sensitive action, and these are its step-up. The server checks the new password's
 * rules and says which it breaks, so the form only requires the fields. Other devices are signed
 * out by the change; this one stays in.
 */
export function ChangePasswordForm({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  const change = useChangePassword();
  const [fields, setFields] = useState(EMPTY);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (twoFactorEnabled && fields.code.length !== CODE_LENGTH) {
      toast.error('Please enter a valid 6-digit code');
      return;
    }
    const body: ChangePasswordInput = { current_password: fields.current, new_password: fields.next };
    if (twoFactorEnabled) body.totp_code = fields.code;
    try {
      await change.mutateAsync(body);
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
      {twoFactorEnabled && (
        <CodeField
          label="Authenticator code"
          code={fields.code}
          onCode={(code) => setFields({ ...fields, code })}
        />
      )}
      <button type="submit" className="button button--primary" disabled={change.isPending}>
        {change.isPending ? 'Please wait...' : 'Change password'}
      </button>
    </form>
  );
}
