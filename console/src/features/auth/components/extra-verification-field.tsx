import { sanitizeCode } from './two-factor-page';

/**
 * The sign-in's second question after too many failed attempts on the account: the server's
 * explanation, then the authenticator's current code, sent with the email and password.
 */
export function ExtraVerificationField({
  detail,
  code,
  onCode,
}: {
  detail: string;
  code: string;
  onCode(code: string): void;
}) {
  return (
    <>
      <p className="muted small" role="status">
        {detail}
      </p>
      <label className="field">
        <span>Authenticator code</span>
        <input
          className="code-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="000000"
          value={code}
          onChange={(event) => onCode(sanitizeCode(event.target.value))}
        />
      </label>
    </>
  );
}
