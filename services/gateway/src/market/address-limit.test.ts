import { describe, expect, it } from 'vitest';
import { AddressLimit } from './address-limit';

describe('AddressLimit', () => {
  it('admits up to the bound per address, independently of other addresses', () => {
    const limit = new AddressLimit(2);
    expect(limit.tryAcquire('10.0.0.1')).toBe(true);
    expect(limit.tryAcquire('10.0.0.1')).toBe(true);
    expect(limit.tryAcquire('10.0.0.1')).toBe(false);
    expect(limit.count('10.0.0.1')).toBe(2);
    expect(limit.tryAcquire('10.0.0.2')).toBe(true);
  });

  it('frees a place on release and forgets an address with nothing open', () => {
    const limit = new AddressLimit(1);
    expect(limit.tryAcquire('::1')).toBe(true);
    expect(limit.tryAcquire('::1')).toBe(false);
    limit.release('::1');
    expect(limit.count('::1')).toBe(0);
    expect(limit.tryAcquire('::1')).toBe(true);
    limit.release('::1');
    limit.release('::1'); // a stray release does not go below zero or open extra places
    expect(limit.tryAcquire('::1')).toBe(true);
    expect(limit.tryAcquire('::1')).toBe(false);
  });
});
