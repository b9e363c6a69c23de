/**
 * The account's password asked again before a sensitive action (turning two-factor on or off): the
 * step-up that shows it is the owner at the keyboard, not someone holding a copied session.
 */
export function PasswordField({ value, onChange }: { value: string; onChange(value: string): void }) {
  return (
    <label className="field">
      <span>Password</span>
      <input
        type="password"
        autoComplete="current-password"
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
