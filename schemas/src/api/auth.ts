import { Type, type Static } from '@sinclair/typebox';
import { AdminUserStats } from './admin';
import { RequestBody } from './request-body';

/**
 * Accounts, sessions and two-factor authentication (product spec §3 and §7 "Authentication").
 * Field names are the spec's. Lengths here only bound what is parsed; the account rules (password
 * at least 8 characters, a valid email, ...) are checked by the gateway with readable messages.
 */

/** The transport bound on a password field: generous, so the password rule gives the message. */
const PASSWORD_FIELD = { minLength: 1, maxLength: 1024 };
const EMAIL_FIELD = { minLength: 1, maxLength: 320 };

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
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.String(EMAIL_FIELD),
    password: Type.String({ ...PASSWORD_FIELD, description: 'At least 8 and at most 128 characters' }),
  },
  { title: 'RegisterRequest' },
);
export type RegisterRequest = Static<typeof RegisterRequest>;

export const LoginRequest = RequestBody(
  { email: Type.String(EMAIL_FIELD), password: Type.String(PASSWORD_FIELD) },
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
      description: 'Opaque, single use; empty when requires_2fa is true (POST /api/2fa/verify returns it)',
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
    refresh_token: Type.String({ description: 'The next refresh token; the one presented is now spent' }),
  },
  { title: 'TokenPair' },
);
export type TokenPairResponse = Static<typeof TokenPairResponse>;

export const RefreshTokenQuery = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 512 }) },
  { title: 'RefreshTokenQuery' },
);
export type RefreshTokenQuery = Static<typeof RefreshTokenQuery>;

export const StatusOkResponse = Type.Object({ status: Type.Literal('ok') }, { title: 'StatusOk' });
export type StatusOkResponse = Static<typeof StatusOkResponse>;

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

export const AdminUserResponse = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    email: Type.String(),
    role: UserRole,
    twofa_enabled: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    stats: Type.Optional(AdminUserStats),
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
  },
  { title: 'AdminUsersQuery' },
);
export type AdminUsersQuery = Static<typeof AdminUsersQuery>;
