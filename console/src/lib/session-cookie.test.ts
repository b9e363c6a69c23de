// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { clearCsrfCookie, setCsrfCookie } from '../testing/cookies';
import { csrfHeaders, csrfToken, readCookie } from './session-cookie';

afterEach(() => {
  clearCsrfCookie();
});

describe('session cookie', () => {
  it('reads one cookie out of document.cookie, decoding it', () => {
    expect(readCookie('b', 'a=1; b=two%20words; c=3')).toBe('two words');
    expect(readCookie('a', 'a=1; b=2')).toBe('1');
    expect(readCookie('ab', 'a=1; b=2')).toBeNull();
    expect(readCookie('a', '')).toBeNull();
    // A value holding '=' (base64 padding) stays whole; a stray '%' is returned as it came.
    expect(readCookie('t', 'x=1; t=abc==')).toBe('abc==');
    expect(readCookie('t', 't=50%')).toBe('50%');
  });

  it('echoes the CSRF cookie in X-CSRF-Token, and sends nothing without one', () => {
    expect(csrfToken()).toBeNull();
    expect(csrfHeaders()).toEqual({});
    setCsrfCookie('csrf-1');
    expect(csrfToken()).toBe('csrf-1');
    expect(csrfHeaders()).toEqual({ 'x-csrf-token': 'csrf-1' });
  });
});
