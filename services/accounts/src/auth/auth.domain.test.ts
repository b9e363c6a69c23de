import { describe, expect, it } from 'vitest';
import {
  accessClaims,
  callerFromClaims,
  checkPassword,
  decideAdminBootstrap,
  decideRefresh,
  googleIdentity,
  isAdminUrl,
  isFreshTotpStep,
  isTotpCodeShape,
  normaliseEmail,
  normaliseName,
  retryAfterText,
  twoFactorClaims,
  validateEmail,
  validateName,
} from './auth.domain';

const USER_ID = '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';
const SESSION_ID = '0b7e5a1c-2d3f-4e4a-9b8c-7d6e5f4a3b2c';
const MIN = 60_000;

describe('email', () => {
  it('is trimmed and lower-cased', () => {
    expect(normaliseEmail('  Ada.Lovelace@Example.COM \n')).toBe('ada.lovelace@example.com');
  });

  it('must look like an address', () => {
    expect(validateEmail('ada@example.com').ok).toBe(true);
    expect(validateEmail('ada@mail.example.co.uk').ok).toBe(true);
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com', 'a@b@c.com']) {
      expect(validateEmail(bad), bad).toEqual({ ok: false, message: 'Enter a valid email address' });
    }
    expect(validateEmail(`${'a'.repeat(250)}@example.com`).ok).toBe(false);
  });
});

describe('name', () => {
  it('is trimmed with inner whitespace collapsed', () => {
    expect(normaliseName('  Ada \t  Lovelace ')).toBe('Ada Lovelace');
  });

  it('is required, bounded and free of control characters', () => {
    expect(validateName('Ada').ok).toBe(true);
    expect(validateName('').ok).toBe(false);
    expect(validateName('x'.repeat(100)).ok).toBe(true);
    expect(validateName('x'.repeat(101)).ok).toBe(false);
    expect(validateName('Ada\u0000').ok).toBe(false);
  });
});

describe('password policy', () => {
  it('needs 8 to 128 characters, counted as characters', () => {
    expect(checkPassword('1234567')).toEqual({
      ok: false,
      message: 'Password must be at least 8 characters',
    });
    expect(checkPassword('12345678').ok).toBe(true);
    expect(checkPassword('x'.repeat(128)).ok).toBe(true);
    expect(checkPassword('x'.repeat(129))).toEqual({
      ok: false,
      message: 'Password must be at most 128 characters',
    });
    // Eight emoji are eight characters although they are sixteen UTF-16 code units.
    expect(checkPassword('😀'.repeat(8)).ok).toBe(true);
    expect(checkPassword('😀'.repeat(7)).ok).toBe(false);
  });

  it('refuses a password of spaces', () => {
    expect(checkPassword(' '.repeat(12)).ok).toBe(false);
  });
});

describe('waits in words', () => {
  const t0 = 1_000_000_000_000;

  it('says how long is left in words', () => {
    expect(retryAfterText(t0 + 15 * MIN, t0)).toBe('15 minutes');
    expect(retryAfterText(t0 + 61_000, t0)).toBe('2 minutes');
    expect(retryAfterText(t0 + 1_000, t0)).toBe('1 second');
    expect(retryAfterText(t0 - 5, t0)).toBe('1 second');
  });
});

describe('TOTP', () => {
  it('accepts only six digits', () => {
    expect(isTotpCodeShape('012345')).toBe(true);
    for (const bad of ['12345', '1234567', '12345a', ' 123456', '']) expect(isTotpCodeShape(bad)).toBe(false);
  });

  it('accepts a time step once, and never one older than the last used', () => {
    expect(isFreshTotpStep(null, 100)).toBe(true);
    expect(isFreshTotpStep(99, 100)).toBe(true);
    expect(isFreshTotpStep(100, 100)).toBe(false);
    expect(isFreshTotpStep(101, 100)).toBe(false);
  });
});

describe('refresh token family rule', () => {
  const now = 5_000;
  const grace = 1_000;
  const live = {
    expiresAt: 10_000,
    rotatedAt: null,
    revokedAt: null,
    successorUnused: false,
    presentedBySuccessorsClient: false,
  };

  it('rotates a live token', () => {
    expect(decideRefresh(live, now, grace)).toEqual({ action: 'rotate' });
  });

  it('rejects unknown, expired and revoked tokens', () => {
    expect(decideRefresh(undefined, now, grace)).toEqual({ action: 'reject', reason: 'unknown' });
    expect(decideRefresh(live, 10_000, grace)).toEqual({ action: 'reject', reason: 'expired' });
    expect(decideRefresh({ ...live, revokedAt: 1 }, now, grace)).toEqual({
      action: 'reject',
      reason: 'revoked',
    });
  });

  it('revokes the family when a spent token comes back, even after it expired', () => {
    expect(decideRefresh({ ...live, rotatedAt: 1 }, now, grace)).toEqual({
      action: 'revoke_family',
      reason: 'reuse',
    });
    expect(decideRefresh({ ...live, rotatedAt: 1 }, 20_000, grace).action).toBe('revoke_family');
  });

  it('exchanges a spent token again only within the grace period and while its successor is unused', () => {
    const spent = { ...live, rotatedAt: now - 999, presentedBySuccessorsClient: true };
    expect(decideRefresh({ ...spent, successorUnused: true }, now, grace)).toEqual({ action: 'reissue' });
    // The successor was used: someone holds the live token, so this copy is a thief's or a victim's.
    expect(decideRefresh(spent, now, grace).action).toBe('revoke_family');
    // Too late for an answer lost in flight.
    expect(decideRefresh({ ...spent, successorUnused: true }, now + 1, grace).action).toBe('revoke_family');
    // A grace period of zero turns the exception off.
    expect(decideRefresh({ ...spent, successorUnused: true }, now, 0).action).toBe('revoke_family');
  });

  it('treats a spent token from another client as theft, even within the grace period', () => {
    const spent = { ...live, rotatedAt: now - 10, successorUnused: true };
    expect(decideRefresh({ ...spent, presentedBySuccessorsClient: false }, now, grace)).toEqual({
      action: 'revoke_family',
      reason: 'reuse_by_other_client',
    });
    expect(decideRefresh({ ...spent, presentedBySuccessorsClient: true }, now, grace)).toEqual({
      action: 'reissue',
    });
  });

  it('does not raise the alarm twice for a family already revoked', () => {
    expect(decideRefresh({ ...live, rotatedAt: 1, revokedAt: 2, successorUnused: true }, now, grace)).toEqual(
      {
        action: 'reject',
        reason: 'revoked',
      },
    );
  });
});

describe('token claims', () => {
  it('stamps issue and expiry times in seconds', () => {
    expect(accessClaims({ id: USER_ID, role: 'admin' }, SESSION_ID, 1_700_000_000_999, 900)).toEqual({
      sub: USER_ID,
      role: 'admin',
      typ: 'access',
      sid: SESSION_ID,
      iat: 1_700_000_000,
      exp: 1_700_000_900,
    });
    expect(twoFactorClaims(USER_ID, 1_700_000_000_000)).toMatchObject({ typ: '2fa', exp: 1_700_000_300 });
  });

  it('keeps the two token types apart', () => {
    const access = accessClaims({ id: USER_ID, role: 'user' }, SESSION_ID, 0, 900);
    const twoFactor = twoFactorClaims(USER_ID, 0);
    expect(callerFromClaims(access, 'access')).toEqual({ id: USER_ID, role: 'user', sessionId: SESSION_ID });
    expect(callerFromClaims(twoFactor, 'access')).toBeUndefined();
    expect(callerFromClaims(access, '2fa')).toBeUndefined();
    expect(callerFromClaims(twoFactor, '2fa')).toMatchObject({ id: USER_ID });
  });

  it('refuses malformed claims', () => {
    expect(callerFromClaims(undefined, 'access')).toBeUndefined();
    expect(callerFromClaims({ sub: 'not-a-uuid', role: 'user', typ: 'access' }, 'access')).toBeUndefined();
    expect(
      callerFromClaims({ sub: USER_ID, role: 'root', typ: 'access', sid: SESSION_ID }, 'access'),
    ).toBeUndefined();
  });

  it('refuses an access token without a session id: no logout could end it', () => {
    expect(callerFromClaims({ sub: USER_ID, role: 'user', typ: 'access' }, 'access')).toBeUndefined();
    expect(
      callerFromClaims({ sub: USER_ID, role: 'user', typ: 'access', sid: 'not-a-uuid' }, 'access'),
    ).toBeUndefined();
  });
});

describe('Google identity', () => {
  const claims = { sub: '1234567890', email: 'Ada@Gmail.com', email_verified: true, name: ' Ada  L ' };

  it('takes the verified email and the name from the token', () => {
    expect(googleIdentity(claims, 'Body Name')).toEqual({
      ok: true,
      identity: { sub: '1234567890', email: 'ada@gmail.com', name: 'Ada L' },
    });
  });

  it('falls back to the body name, then the email', () => {
    const { name: _name, ...nameless } = claims;
    expect(googleIdentity(nameless, 'Body Name')).toMatchObject({ identity: { name: 'Body Name' } });
    expect(googleIdentity(nameless, undefined)).toMatchObject({ identity: { name: 'ada' } });
  });

  it('refuses an unverified email or a missing subject', () => {
    expect(googleIdentity({ ...claims, email_verified: false }, undefined).ok).toBe(false);
    expect(googleIdentity({ ...claims, email_verified: undefined }, undefined).ok).toBe(false);
    expect(googleIdentity({ ...claims, email_verified: 'true' }, undefined).ok).toBe(true);
    expect(googleIdentity({ ...claims, sub: '' }, undefined).ok).toBe(false);
  });
});

describe('admin bootstrap', () => {
  it('creates only when absent and never changes an existing account', () => {
    expect(decideAdminBootstrap(undefined)).toBe('create');
    expect(decideAdminBootstrap({ role: 'admin' })).toBe('already_admin');
    expect(decideAdminBootstrap({ role: 'user' })).toBe('exists_not_admin');
  });

  it('knows the admin area', () => {
    expect(isAdminUrl('/api/admin/users')).toBe(true);
    expect(isAdminUrl('/api/admin')).toBe(true);
    expect(isAdminUrl('/api/administrator')).toBe(false);
    expect(isAdminUrl('/api/auth/me')).toBe(false);
  });
});
