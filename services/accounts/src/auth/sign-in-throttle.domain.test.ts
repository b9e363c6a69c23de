import { describe, expect, it } from 'vitest';
import {
  addressKey,
  ceilingClearsAt,
  decideAttempt,
  delayedUntil,
  failureDelayMs,
  retryAfterSec,
  type AttemptFacts,
  type ThrottlePolicy,
  type ThrottleState,
} from './sign-in-throttle.domain';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const T0 = 1_767_614_400_000;

const POLICY: ThrottlePolicy = {
  freeFailures: 3,
  delayBaseMs: SEC,
  delayMsMax: 15 * MIN,
  addressFailuresMax: 100,
  accountFailuresMax: 20,
  windowMs: HOUR,
};

const CLEAN: ThrottleState = {
  pairFailures: 0,
  pairLastFailureAt: null,
  addressCeilingFailureAt: null,
  accountCeilingFailureAt: null,
};

function facts(state: Partial<ThrottleState>, rest: Partial<Omit<AttemptFacts, 'state'>> = {}): AttemptFacts {
  return {
    state: { ...CLEAN, ...state },
    accountCeiling: 'extra_step',
    knownAddress: false,
    codeSent: false,
    ...rest,
  };
}

describe('the delay of one account on one address', () => {
  it('costs nothing for the free failures, then doubles from the base up to the cap', () => {
    const delays = Array.from({ length: 16 }, (_, n) => failureDelayMs(n, POLICY) / SEC);
    expect(delays).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    expect(failureDelayMs(10_000, POLICY)).toBe(15 * MIN);
  });

  it('runs from the latest failure', () => {
    expect(delayedUntil({ ...CLEAN, pairFailures: 3, pairLastFailureAt: T0 }, POLICY)).toBeNull();
    expect(delayedUntil({ ...CLEAN, pairFailures: 6, pairLastFailureAt: T0 }, POLICY)).toBe(T0 + 4 * SEC);
  });

  it('refuses before the wait is over and checks after it, even at the same account ceiling', () => {
    const state = { pairFailures: 5, pairLastFailureAt: T0 };
    expect(decideAttempt(facts(state), T0 + 1999, POLICY)).toEqual({
      action: 'refuse',
      scope: 'pair',
      untilMs: T0 + 2 * SEC,
    });
    expect(decideAttempt(facts(state), T0 + 2 * SEC, POLICY)).toEqual({ action: 'check' });
  });

  it('applies to two-factor codes and known addresses alike', () => {
    const state = { pairFailures: 4, pairLastFailureAt: T0 };
    const code = facts(state, { accountCeiling: 'none', knownAddress: true });
    expect(decideAttempt(code, T0 + 500, POLICY)).toMatchObject({ action: 'refuse', scope: 'pair' });
  });
});

describe('the ceilings', () => {
  it('holds until the failure that brings the count under the ceiling ages out', () => {
    expect(ceilingClearsAt(null, HOUR)).toBeNull();
    expect(ceilingClearsAt(T0, HOUR)).toBe(T0 + HOUR);
  });

  it('refuses every attempt from an address at its ceiling, known addresses and codes too', () => {
    const state = { addressCeilingFailureAt: T0 };
    for (const rest of [
      {},
      { knownAddress: true },
      { codeSent: true },
      { accountCeiling: 'none' as const },
    ]) {
      expect(decideAttempt(facts(state, rest), T0 + 10 * MIN, POLICY)).toEqual({
        action: 'refuse',
        scope: 'address',
        untilMs: T0 + HOUR,
      });
    }
    expect(decideAttempt(facts(state), T0 + HOUR, POLICY)).toEqual({ action: 'check' });
  });

  it('answers with the later end when the delay and the address ceiling both hold', () => {
    const both = { pairFailures: 20, pairLastFailureAt: T0, addressCeilingFailureAt: T0 - 55 * MIN };
    expect(decideAttempt(facts(both), T0 + SEC, POLICY)).toEqual({
      action: 'refuse',
      scope: 'pair',
      untilMs: T0 + 15 * MIN,
    });
    const addressLater = { ...both, addressCeilingFailureAt: T0 };
    expect(decideAttempt(facts(addressLater), T0 + SEC, POLICY)).toMatchObject({ scope: 'address' });
  });

  it('asks an unknown address without a code for the extra step at the account ceiling', () => {
    const state = { accountCeilingFailureAt: T0 };
    expect(decideAttempt(facts(state), T0 + MIN, POLICY)).toEqual({
      action: 'extra_step',
      untilMs: T0 + HOUR,
    });
    expect(decideAttempt(facts(state, { codeSent: true }), T0 + MIN, POLICY)).toEqual({ action: 'check' });
    expect(decideAttempt(facts(state, { knownAddress: true }), T0 + MIN, POLICY)).toEqual({
      action: 'check',
    });
    expect(decideAttempt(facts(state, { accountCeiling: 'none' }), T0 + MIN, POLICY)).toEqual({
      action: 'check',
    });
    expect(decideAttempt(facts(state), T0 + HOUR, POLICY)).toEqual({ action: 'check' });
  });

  it('refuses a code from an unknown address at the account ceiling; a known address goes on', () => {
    const state = { accountCeilingFailureAt: T0 };
    const code = (rest: Partial<Omit<AttemptFacts, 'state'>>) =>
      facts(state, { accountCeiling: 'refuse', ...rest });
    expect(decideAttempt(code({}), T0 + MIN, POLICY)).toEqual({
      action: 'refuse',
      scope: 'account',
      untilMs: T0 + HOUR,
    });
    // A code is not an extra step for a code: sending one changes nothing.
    expect(decideAttempt(code({ codeSent: true }), T0 + MIN, POLICY)).toMatchObject({ scope: 'account' });
    expect(decideAttempt(code({ knownAddress: true }), T0 + MIN, POLICY)).toEqual({ action: 'check' });
    expect(decideAttempt(code({}), T0 + HOUR, POLICY)).toEqual({ action: 'check' });
  });

  it('refuses outright before it asks for the extra step', () => {
    const state = { accountCeilingFailureAt: T0, pairFailures: 4, pairLastFailureAt: T0 };
    expect(decideAttempt(facts(state), T0 + 500, POLICY)).toMatchObject({ action: 'refuse', scope: 'pair' });
  });
});

describe('Retry-After', () => {
  it('is whole seconds, rounded up, at least one', () => {
    expect(retryAfterSec(T0 + 2 * SEC, T0)).toBe(2);
    expect(retryAfterSec(T0 + 2001, T0)).toBe(3);
    expect(retryAfterSec(T0 + 1, T0)).toBe(1);
    expect(retryAfterSec(T0 - 5, T0)).toBe(1);
  });
});

describe('the address key', () => {
  it('keeps an IPv4 address whole', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey(' 203.0.113.07 ')).toBe('203.0.113.7');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keys IPv6 by its /64 prefix, however it is written', () => {
    const key = '2001:db8:85a3:8d3::/64';
    expect(addressKey('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(key);
    expect(addressKey('2001:0DB8:85A3:08D3:ffff:ffff:ffff:ffff')).toBe(key);
    expect(addressKey('2001:db8:85a3:8d3::1')).toBe(key);
    expect(addressKey('2001:db8:85a3:8d3::1%eth0')).toBe(key);
    expect(addressKey('2001:db8:85a3:8d4::1')).not.toBe(key);
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });

  it('keeps text that is no address as its own key', () => {
    for (const text of ['', 'unknown', '1.2.3.256', '1::2::3', '1:2:3:4:5:6:7:8:9', '12345::']) {
      expect(addressKey(text)).toBe(text.toLowerCase());
    }
  });
});
