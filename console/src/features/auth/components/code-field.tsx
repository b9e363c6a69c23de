import { sanitizeCode } from './two-factor-page';

/**
 * A labelled 6-digit authenticator code: digits only (anything else typed is dropped), the numeric
 * keypad on phones, and the browser's one-time-code autofill.
 */
export function CodeField({
  label,
  code,
  onCode,
}: {
  label: string;
  code: string;
  onCode(code: string): void;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        className="code-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="000000"
        value={code}
        onChange={(event) => onCode(sanitizeCode(event.target.value))}
      />
    </label>
  );
}
