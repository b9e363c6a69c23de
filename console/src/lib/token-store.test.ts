// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LEGACY_REFRESH_TOKEN_KEY, tokenStore } from './token-store';

beforeEach(() => {
  localStorage.clear();
});

describe('token store', () => {
  it('keeps the access token and user id, and never writes a refresh token', () => {
    const listener = vi.fn();
    const unsubscribe = tokenStore.subscribe(listener);
    tokenStore.setAccessToken('access-1');
    tokenStore.setUserId('user-1');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(tokenStore.accessToken()).toBe('access-1');
    expect(tokenStore.userId()).toBe('user-1');
    expect(Object.keys(localStorage).sort()).toEqual(['access_token', 'user_id']);
    expect(localStorage.getItem(LEGACY_REFRESH_TOKEN_KEY)).toBeNull();
    unsubscribe();
  });

  it("reads an earlier version's refresh token until it is forgotten", () => {
    localStorage.setItem('refresh_token', 'legacy-1');
    expect(tokenStore.legacyRefreshToken()).toBe('legacy-1');
    tokenStore.forgetLegacyRefreshToken();
    expect(tokenStore.legacyRefreshToken()).toBeNull();
  });

  it('clears every key, the legacy refresh token included, and tells the listeners', () => {
    localStorage.setItem('refresh_token', 'legacy-1');
    tokenStore.setAccessToken('access-1');
    tokenStore.setUserId('user-1');
    const listener = vi.fn();
    const unsubscribe = tokenStore.subscribe(listener);
    tokenStore.clear();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(localStorage.length).toBe(0);
    unsubscribe();
  });
});
