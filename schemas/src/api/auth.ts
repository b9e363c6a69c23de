import { Type, type Static } from '@sinclair/typebox';
import { AdminUserStats } from './admin';
import { ToxicityScore, TraderLimits } from './risk';
import { refusal } from './refusal';
import { RequestBody } from './request-body';

/**
 * Accounts, sessions and two-factor authentication (product spec §3 and §7 "Authentication").
 * Field names are the spec's. Registration's account rules (password length, email shape, name)
 * live here, so the OpenAPI document states exactly what the gateway refuses; the gateway's
 * account domain uses the same constants for the paths that bypass HTTP (admin CLI, Google).
 */

export const EMAIL_LENGTH_MAX = 254;
export const NAME_LENGTH_MAX = 100;
export const PASSWORD_LENGTH_MIN = 8;
/** Bounds the work of hashing one request and stays far above any passphrase a person types. */
export const PASSWORD_LENGTH_MAX = 128;
/**
 * A pragmatic email shape: one `@`, a dot in the domain, no spaces. Deliverability is not ours to
 * judge. Emails are trimmed and lower-cased before they are checked and stored.
 */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@.]+(\\.[^\\s@.]+)+$';
/** Some character that is not a space, and no control characters anywhere. */
const PRINTABLE_NOT_BLANK =
  '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';

const INVALID_EMAIL = 'Enter a valid email address';

/** The transport bound on a sign-in password: generous, since old passwords may predate the policy. */
const LOGIN_PASSWORD_FIELD = { minLength: 1, maxLength: 1024 };
const LOGIN_EMAIL_FIELD = { minLength: 1, maxLength: 320 };

/** Registration's email: the shape above, surrounding spaces allowed (they are trimmed). */
const RegisterEmail = Type.String({
  minLength: 3,
  maxLength: EMAIL_LENGTH_MAX,
  pattern: `^\\s*${EMAIL_PATTERN.slice(1, -1)}\\s*$`,
  description: 'An email address such as ann@example.com; stored trimmed and lower-cased',
  ...refusal('INVALID_ACCOUNT_DETAILS', { '*': INVALID_EMAIL }),
});

/** Length in characters (code points, as Ajv counts), so a passphrase in any script is measured fairly. */
const NewPassword = Type.String({
  minLength: PASSWORD_LENGTH_MIN,
  maxLength: PASSWORD_LENGTH_MAX,
  pattern: '\\S',
  description: `${PASSWORD_LENGTH_MIN} to ${PASSWORD_LENGTH_MAX} characters, not only spaces`,
  ...refusal('INVALID_ACCOUNT_DETAILS', {
    minLength: `Password must be at least ${PASSWORD_LENGTH_MIN} characters`,
    maxLength: `Password must be at most ${PASSWORD_LENGTH_MAX} characters`,
    pattern: 'Password cannot be only spaces',
  }),
});

const NewName = Type.String({
  minLength: 1,
  maxLength: NAME_LENGTH_MAX,
  pattern: PRINTABLE_NOT_BLANK,
  description: `The name shown to others; at most ${NAME_LENGTH_MAX} characters, runs of spaces collapsed`,
  ...refusal('INVALID_ACCOUNT_DETAILS', {
    minLength: 'Name is required',
    maxLength: `Name must be at most ${NAME_LENGTH_MAX} characters`,
    pattern: 'Name is required and cannot contain control characters',
  }),
});

export const UserRole = Type.Union([Type.Literal('user'), Type.Literal('admin')], {
  title: 'UserRole',
  description: "'admin' marks an administrator",
});
export type UserRole = Static<typeof UserRole>;

export const UserResponse = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    name: Type.String(),
    role: UserRole,
    twofa_enabled: Type.Boolean(),
  },
  { title: 'User' },
);
export type UserResponse = Static<typeof UserResponse>;

export const RegisterRequest = RequestBody(
  {
    name: NewName,
    email: RegisterEmail,
    password: NewPassword,
  },
  { title: 'RegisterRequest' },
);
export type RegisterRequest = Static<typeof RegisterRequest>;

/**
 * The authenticator code sent with the password: the extra step an address the account never
 * signed in from is asked for once the account had too many failed sign-ins.
 */
const LoginTotpCode = Type.String({
  pattern: '^[0-9]{6}$',
  description:
    "The account's current 6-digit authenticator code. Send it when a sign-in was answered 429 EXTRA_VERIFICATION_REQUIRED; with the right password and a code not used before, the session starts at once (no second step). When sent it is always checked: an account without two-factor has no right code.",
  ...refusal(undefined, { '*': 'The authenticator code is 6 digits' }),
});

export const LoginRequest = RequestBody(
  {
    email: Type.String(LOGIN_EMAIL_FIELD),
    password: Type.String(LOGIN_PASSWORD_FIELD),
    totp_code: Type.Optional(LoginTotpCode),
  },
  { title: 'LoginRequest' },
);
export type LoginRequest = Static<typeof LoginRequest>;

export const LoginResponse = Type.Object(
  {
    access_token: Type.String({
      description:
        'A 15-minute access token; when requires_2fa is true, a 5-minute token accepted only by POST /api/2fa/verify',
    }),
    refresh_token: Type.String({
      description:
        'Opaque, single use; empty when requires_2fa is true (POST /api/2fa/verify returns it), and empty when the request asked for the cookie form (X-Updown-Session: cookie), which sets it as an HttpOnly cookie instead',
    }),
    requires_2fa: Type.Boolean(),
  },
  { title: 'LoginResponse' },
);
export type LoginResponse = Static<typeof LoginResponse>;

/** Returned by `/api/auth/refresh` and `/api/2fa/verify`. */
export const TokenPairResponse = Type.Object(
  {
    access_token: Type.String(),
    refresh_token: Type.String({
      description:
        'The next refresh token; the one presented is now spent. Empty in the cookie form (X-Updown-Session: cookie, or a refresh by cookie), which sets it as an HttpOnly cookie instead',
    }),
  },
  { title: 'TokenPair' },
);
export type TokenPairResponse = Static<typeof TokenPairResponse>;

const RefreshToken = Type.String({ minLength: 1, maxLength: 512, description: 'The refresh token' });

/**
 * Where a refresh token goes: in the JSON body. URLs end up in access logs, proxies and browser
 * history, so the body is the form to use; the query form below is the spec's and is still taken.
 */
export const RefreshTokenBody = RequestBody({ refresh_token: RefreshToken }, { title: 'RefreshTokenBody' });
export type RefreshTokenBody = Static<typeof RefreshTokenBody>;

export const RefreshTokenQuery = Type.Object(
  {
    refresh_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description:
          'The refresh token, for clients that cannot send a body. Prefer the JSON body: a URL lands in logs and proxies. When both are sent they must be equal.',
      }),
    ),
  },
  { title: 'RefreshTokenQuery' },
);
export type RefreshTokenQuery = Static<typeof RefreshTokenQuery>;

export const StatusOkResponse = Type.Object({ status: Type.Literal('ok') }, { title: 'StatusOk' });
export type StatusOkResponse = Static<typeof StatusOkResponse>;

/** Answered when sessions were ended: by "log out everywhere" and by a password change. */
export const SessionsEndedResponse = Type.Object(
  {
    status: Type.Literal('ok'),
    sessions_ended: Type.Integer({
      minimum: 0,
      description: 'How many sessions ended; their access tokens are refused from now on',
    }),
  },
  { title: 'SessionsEnded' },
);
export type SessionsEndedResponse = Static<typeof SessionsEndedResponse>;

/**
 * The authenticator code of a step-up (README "Step-up"): needed with the password when two-factor
 * is on.
 */
const StepUpTotpCode = Type.String({
  pattern: '^[0-9]{6}$',
  description: "The account's current 6-digit authenticator code; required when two-factor is on",
  ...refusal(undefined, { '*': 'The authenticator code is 6 digits' }),
});

/**
 * A step-up: the password, and the code when two-factor is on. A sensitive action needs one from
 * the last 5 minutes on the caller's session.
 */
export const StepUpRequest = RequestBody(
  { password: Type.String(LOGIN_PASSWORD_FIELD), totp_code: Type.Optional(StepUpTotpCode) },
  { title: 'StepUpRequest' },
);
export type StepUpRequest = Static<typeof StepUpRequest>;

/** A signed-in user changing their own password: the current one (and code) is the step-up. */
export const ChangePasswordRequest = RequestBody(
  {
    current_password: Type.String(LOGIN_PASSWORD_FIELD),
    new_password: NewPassword,
    totp_code: Type.Optional(StepUpTotpCode),
  },
  { title: 'ChangePasswordRequest' },
);
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>;

/**
 * What the console posts after the external Google sign-in. Only `session_token` (a Google ID
 * token) is trusted; the email always comes from the verified token, `name` is a fallback.
 */
export const GoogleLoginRequest = RequestBody(
  {
    email: Type.Optional(Type.Union([Type.String({ maxLength: 320 }), Type.Null()])),
    name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    picture: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
    session_token: Type.String({ minLength: 1, maxLength: 8192, description: 'A Google ID token (JWT)' }),
  },
  { title: 'GoogleLoginRequest' },
);
export type GoogleLoginRequest = Static<typeof GoogleLoginRequest>;

export const TwoFactorSetupResponse = Type.Object(
  {
    secret: Type.String({ description: 'Base32 TOTP secret, for manual entry' }),
    otpauth_url: Type.String(),
    qr_code: Type.String({ description: 'PNG data URL of the otpauth URL' }),
  },
  { title: 'TwoFactorSetup' },
);
export type TwoFactorSetupResponse = Static<typeof TwoFactorSetupResponse>;

export const TwoFactorCodeRequest = RequestBody(
  { token: Type.String({ minLength: 1, maxLength: 16, description: 'The 6-digit code' }) },
  { title: 'TwoFactorCodeRequest' },
);
export type TwoFactorCodeRequest = Static<typeof TwoFactorCodeRequest>;

/**
 * Turning two-factor on or off: the code, and optionally the password, which makes this request
 * its own step-up (without it, the session needs a step-up from the last 5 minutes).
 */
export const TwoFactorChangeRequest = RequestBody(
  {
    token: Type.String({ minLength: 1, maxLength: 16, description: 'The 6-digit code' }),
    password: Type.Optional(
      Type.String({
        ...LOGIN_PASSWORD_FIELD,
        description: 'The account password: this request is its own step-up',
      }),
    ),
  },
  { title: 'TwoFactorChangeRequest' },
);
export type TwoFactorChangeRequest = Static<typeof TwoFactorChangeRequest>;

export const AdminUserResponse = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    role: UserRole,
    twofa_enabled: Type.Boolean(),
    created_at: Type.String({ format: 'date-time', description: 'When the user registered, ISO 8601' }),
    stats: Type.Optional(AdminUserStats),
    // A nullable use of a titled schema carries no description of its own: the OpenAPI
    // document would merge it into the shared component. The components describe themselves.
    toxicity: Type.Optional(Type.Union([ToxicityScore, Type.Null()])),
    limits: Type.Optional(Type.Union([TraderLimits, Type.Null()])),
  },
  { title: 'AdminUser' },
);
export type AdminUserResponse = Static<typeof AdminUserResponse>;

export const AdminUserList = Type.Array(AdminUserResponse, { title: 'AdminUserList' });
export type AdminUserList = Static<typeof AdminUserList>;

export const AdminUsersQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    sort: Type.Optional(
      Type.Union([Type.Literal('registered'), Type.Literal('toxicity')], {
        default: 'registered',
        description: '`registered`: newest first. `toxicity`: highest toxicity score first, unscored last',
      }),
    ),
  },
  { title: 'AdminUsersQuery' },
);
export type AdminUsersQuery = Static<typeof AdminUsersQuery>;
