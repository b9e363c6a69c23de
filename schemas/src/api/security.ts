import { Type, type Static } from '@sinclair/typebox';

/**
 * What an account's owner (and an admin) sees of its security: the step-up answer, the sessions
 * that can still be renewed, and the security activity (README "Account security").
 */

export const StepUpResponse = Type.Object(
  {
    status: Type.Literal('ok'),
    step_up_expires_at: Type.String({
      format: 'date-time',
      description: 'Until when sensitive actions on this session need no new password check, ISO 8601',
    }),
  },
  { title: 'StepUp' },
);
export type StepUpResponse = Static<typeof StepUpResponse>;

export const ActiveSession = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The session id' }),
    signed_in_at: Type.String({ format: 'date-time' }),
    last_seen_at: Type.String({
      format: 'date-time',
      description: 'The last sign-in or token renewal (access tokens renew every few minutes while in use)',
    }),
    address: Type.Union([Type.String(), Type.Null()], {
      description: 'The client address last seen; null if unknown',
    }),
    device: Type.String({
      description: 'Browser and system, such as "Chrome on Linux", or "Unknown device"',
    }),
    current: Type.Boolean({ description: 'Whether this is the session making the request' }),
  },
  { title: 'ActiveSession' },
);
export type ActiveSession = Static<typeof ActiveSession>;

export const ActiveSessionList = Type.Object(
  { sessions: Type.Array(ActiveSession, { description: 'Most recently seen first' }) },
  { title: 'ActiveSessionList' },
);
export type ActiveSessionList = Static<typeof ActiveSessionList>;

export const SessionIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const SecurityEventKind = Type.Union(
  [
    Type.Literal('sign_in'),
    Type.Literal('sign_in_failures'),
    Type.Literal('two_factor_enabled'),
    Type.Literal('two_factor_disabled'),
    Type.Literal('password_changed'),
    Type.Literal('session_ended'),
    Type.Literal('all_sessions_ended'),
    Type.Literal('refresh_token_reused'),
  ],
  { title: 'SecurityEventKind' },
);

export const SecurityEvent = Type.Object(
  {
    id: Type.String({ description: 'Opaque; newer events have larger ids' }),
    kind: SecurityEventKind,
    description: Type.String({ description: 'One sentence for people, the same in every view' }),
    occurred_at: Type.String({ format: 'date-time' }),
    address: Type.Union([Type.String(), Type.Null()]),
    device: Type.String(),
    session_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  },
  { title: 'SecurityEvent' },
);
export type SecurityEvent = Static<typeof SecurityEvent>;

export const SECURITY_ACTIVITY_LIMIT_DEFAULT = 20;
export const SECURITY_ACTIVITY_LIMIT_MAX = 100;

export const SecurityActivityQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: SECURITY_ACTIVITY_LIMIT_MAX,
      default: SECURITY_ACTIVITY_LIMIT_DEFAULT,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'next_cursor of the previous page' }),
  ),
});

export const SecurityActivity = Type.Object(
  {
    events: Type.Array(SecurityEvent, { description: 'Newest first' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as cursor for older events; null on the last page',
    }),
  },
  { title: 'SecurityActivity' },
);
export type SecurityActivity = Static<typeof SecurityActivity>;
