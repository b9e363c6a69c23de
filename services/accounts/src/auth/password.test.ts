import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT, PasswordHasher } from './password';

describe('password hashing', () => {
  // A cheaper cost keeps this unit test fast; the integration tests use the default.
  const hasher = new PasswordHasher({ N: 2 ** 12, r: 8, p: 1 });

  it('stores parameters and a per-user salt with the hash', async () => {
    const a = await hasher.hash('correct horse battery');
    const b = await hasher.hash('correct horse battery');
    expect(a).toMatch(/^scrypt\$4096\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password only', async () => {
    const stored = await hasher.hash('correct horse battery');
    expect(await hasher.verify('correct horse battery', stored)).toBe(true);
    expect(await hasher.verify('correct horse batterY', stored)).toBe(false);
    expect(await hasher.verify('', stored)).toBe(false);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const stored = await hasher.hash('caf\u00e9-au-lait');
    expect(await hasher.verify('cafe\u0301-au-lait', stored)).toBe(true);
  });

  it('verifies hashes made with other parameters and flags them for an upgrade', async () => {
    const old = await hasher.hash('correct horse battery');
    const current = new PasswordHasher(DEFAULT_SCRYPT);
    expect(await current.verify('correct horse battery', old)).toBe(true);
    expect(current.needsRehash(old)).toBe(true);
    expect(hasher.needsRehash(old)).toBe(false);
  });

  it('never verifies a malformed or hostile stored hash', async () => {
    for (const bad of [
      '',
      'plain',
      'scrypt$4096$8$1$c2FsdA$',
      'scrypt$3$8$1$c2FsdHNhbHQ$aGFzaA',
      `scrypt$${2 ** 30}$8$1$c2FsdHNhbHQ$${'A'.repeat(43)}`,
    ]) {
      expect(await hasher.verify('x', bad), bad).toBe(false);
    }
    expect(await hasher.verifyNobody('anything')).toBe(false);
  });
});
