import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '@updown/runtime';
import type { SecurityEventKind } from '../auth/security.domain';

/**
 * The accounts' tables: users, refresh tokens and sessions, security activity, failed sign-ins,
 * the addresses accounts signed in from, identity documents and submissions, and the admin audit
 * trail. Their migrations in `./migrations` are the source of truth;
 * these interfaces mirror them for kysely and add them to the runtime's `Database` (declaration
 * merging), so every package's queries see them.
 */

export interface UsersTable {
  id: string;
  /** Normalised: trimmed and lower case (the database checks it). */
  email: string;
  name: string;
  role: ColumnType<'user' | 'admin', 'user' | 'admin' | undefined, 'user' | 'admin'>;
  password_hash: string;
  google_sub: string | null;
  twofa_enabled: Generated<boolean>;
  twofa_secret: string | null;
  twofa_pending_secret: string | null;
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  twofa_last_step: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the account closed; identity data is kept five years from then. */
  closed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  parent_id: string | null;
  /** SHA-256 of the opaque token, hex; the token itself is never stored. */
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  rotated_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  /** `clientBinding` of the client the token was issued to; null for tokens issued before it was kept. */
  client_binding: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row per session (refresh-token family): what the owner's session list shows. */
export interface SessionsTable {
  /** The refresh-token family id, which access tokens carry as `sid`. */
  id: string;
  user_id: string;
  created_at: Timestamp;
  /** The last sign-in or refresh: access tokens live minutes, so this is within one token's life. */
  last_seen_at: Timestamp;
  address: string | null;
  user_agent: string | null;
  /** When the holder last proved the password (and code): the step-up claim sensitive actions need. */
  step_up_at: NullableTimestamp;
  /** The client (`bindingOf`) that proved it: the claim covers that client only. */
  step_up_binding: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SecurityEventsTable {
  /** bigint, read as a number (the runtime parses int8): far below 2^53 for any real count. */
  id: Generated<number>;
  user_id: string;
  kind: SecurityEventKind;
  occurred_at: Timestamp;
  session_id: string | null;
  address: string | null;
  user_agent: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  /** Normalised email for password attempts, user id for two-factor codes. */
  subject: string;
  kind: 'password' | 'totp';
  /** `addressKey` of the client address (IPv4 whole, IPv6 by /64). */
  address: string;
  occurred_at: Timestamp;
}

/** Addresses an account completed a sign-in from: the per-account ceiling spares them. */
export interface SignInAddressesTable {
  user_id: string;
  /** `addressKey` of the client address. */
  address: string;
  last_sign_in_at: Timestamp;
}

export interface AdminAuditTable {
  id: Generated<number>;
  actor_id: string;
  action: string;
  target: string;
  before: ColumnType<unknown, string | null | undefined, string | null>;
  after: ColumnType<unknown, string | null | undefined, string | null>;
  at: Timestamp;
}

export interface IdentityDocumentsTable {
  id: string;
  seq: Generated<number>;
  user_id: string;
  kind: 'photo_id' | 'proof_of_address';
  content_type: 'image/jpeg' | 'image/png' | 'application/pdf';
  size_bytes: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  /** Page count of a PDF; null for an image. */
  pages: number | null;
  /** The file; null once the retention job purged it. */
  content: Buffer | null;
  uploaded_at: Timestamp;
  purged_at: NullableTimestamp;
}

export interface IdentitySubmissionsTable {
  id: string;
  seq: Generated<number>;
  user_id: string;
  full_name: string;
  /** The name folded for comparison (`nameKey`): the duplicate signal matches on it. */
  name_key: string;
  /** YYYY-MM-DD. */
  date_of_birth: ColumnType<string, string, string>;
  photo_id_document: string;
  proof_of_address_document: string;
  status: ColumnType<'pending' | 'verified' | 'rejected', 'pending' | undefined, 'verified' | 'rejected'>;
  submitted_at: Timestamp;
  decided_at: NullableTimestamp;
  decided_by: string | null;
  rejection_reason: string | null;
}

declare module '@updown/runtime' {
  interface Database {
    users: UsersTable;
    refresh_tokens: RefreshTokensTable;
    sessions: SessionsTable;
    security_events: SecurityEventsTable;
    login_failures: LoginFailuresTable;
    sign_in_addresses: SignInAddressesTable;
    admin_audit: AdminAuditTable;
    identity_documents: IdentityDocumentsTable;
    identity_submissions: IdentitySubmissionsTable;
  }
}
