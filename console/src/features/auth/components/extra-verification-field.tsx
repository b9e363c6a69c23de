import { CodeField } from './code-field';

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
      <CodeField label="Authenticator code" code={code} onCode={onCode} />
    </>
  );
}
