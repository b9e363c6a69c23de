import { describe, expect, it } from 'vitest';
import {
  addressPrefix,
  clientBinding,
  isFailureBurst,
  isStepUpFresh,
  sameClient,
  SECURITY_EVENT_KINDS,
  SECURITY_EVENT_TEXT,
  STEP_UP_TTL_MS,
} from './security.domain';

describe('step-up freshness', () => {
  const now = 1_000_000;

  it('covers actions for five minutes after the check, not a moment longer', () => {
    expect(isStepUpFresh(now, now)).toBe(true);
    expect(isStepUpFresh(now - STEP_UP_TTL_MS + 1, now)).toBe(true);
    expect(isStepUpFresh(now - STEP_UP_TTL_MS, now)).toBe(false);
  });

  it('never covers a session that did not step up, nor a check stamped in the future', () => {
    expect(isStepUpFresh(null, now)).toBe(false);
    expect(isStepUpFresh(now + 1, now)).toBe(false);
  });
});

describe('the client a refresh token is bound to', () => {
  it('keys IPv4 by its /24, IPv6 by its /64 and a mapped IPv4 as IPv4', () => {
    expect(addressPrefix('203.0.113.7')).toBe('203.0.113.0/24');
    expect(addressPrefix('::ffff:203.0.113.200')).toBe('203.0.113.0/24');
    expect(addressPrefix('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressPrefix('2001:db8:1:2:bbbb::9')).toBe(addressPrefix('2001:db8:1:2:aaaa::1'));
  });

  it('is the same client only with the same prefix and user agent', () => {
    const mine = clientBinding('198.51.100.4', 'agent-a');
    expect(sameClient(mine, clientBinding('198.51.100.77', 'agent-a'))).toBe(true);
    expect(sameClient(mine, clientBinding('198.51.101.4', 'agent-a'))).toBe(false);
    expect(sameClient(mine, clientBinding('198.51.100.4', 'agent-b'))).toBe(false);
  });

  it('never matches a token issued before bindings were kept', () => {
    expect(sameClient(null, clientBinding('198.51.100.4', 'agent-a'))).toBe(false);
  });
});

describe('security activity', () => {
  it('tells a failure burst once, when the failures reach the free ones', () => {
    expect([1, 2, 3, 4, 5].filter((count) => isFailureBurst(count, 3))).toEqual([3]);
    expect(isFailureBurst(1, 0)).toBe(true);
  });

  it('has a sentence for every kind, and the reuse one says what happened to the sessions', () => {
    for (const kind of SECURITY_EVENT_KINDS) expect(SECURITY_EVENT_TEXT[kind]).toMatch(/\S/);
    expect(SECURITY_EVENT_TEXT.refresh_token_reused).toBe(
      'A sign-in token was used twice, so we signed you out everywhere',
    );
  });
});
