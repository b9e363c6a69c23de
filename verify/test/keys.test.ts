import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64urlToBytes, bytesToBase64url, bytesToHex, hexToBytes } from '../src/base64url.js';
import type { PublicJwk } from '../src/crypto-port.js';
import {
  findKey,
  jwkThumbprint,
  keySetProblems,
  keySetThumbprint,
  verifySignature,
  type KeySetJwk,
} from '../src/keys.js';
import { nodeCrypto } from '../src/node-crypto.js';
import { webCrypto } from '../src/web-crypto.js';
import { createSigner, keySetOf, thumbprint } from './fixtures.js';
import { CHECKPOINT_1_2, RFC8032_KEY_SET, RFC8032_KEY_SET_THUMBPRINT, RFC8032_TEST_1 } from './vectors.js';

const ports = [
  ['node:crypto', nodeCrypto],
  ['Web Crypto', webCrypto()],
] as const;

describe.each(ports)('the %s port', (_name, port) => {
  const jwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: RFC8032_TEST_1.x };
  const sig = bytesToBase64url(hexToBytes(RFC8032_TEST_1.emptyMessageSignatureHex));

  it('verifies the RFC 8032 test 1 signature, and refuses it for another message', async () => {
    expect(await port.verifyEd25519(jwk, '', sig)).toBe(true);
    expect(await port.verifyEd25519(jwk, 'x', sig)).toBe(false);
  });

  it('returns false, never throws, for a malformed key or signature', async () => {
    const cases: [typeof jwk, string][] = [
      [{ ...jwk, x: 'not base64url!' }, sig],
      [{ ...jwk, x: RFC8032_TEST_1.x.slice(0, -2) }, sig],
      [{ ...jwk, crv: 'X25519' }, sig],
      [{ ...jwk, kty: 'RSA' }, sig],
      [jwk, sig.slice(0, -4)],
      [jwk, `${sig}AA`],
      [jwk, sig.replace(/.$/, 'B')],
      [jwk, ''],
      [jwk, '=='],
    ];
    for (const [key, signature] of cases) expect(await port.verifyEd25519(key, '', signature)).toBe(false);
  });

  it('computes the RFC 7638 thumbprint of the RFC 8037 example key', async () => {
    expect(await jwkThumbprint(port, jwk)).toBe(RFC8032_TEST_1.thumbprint);
  });

  it('verifies the documented checkpoint signature', async () => {
    const checked = await verifySignature(
      port,
      RFC8032_KEY_SET,
      CHECKPOINT_1_2.canonical,
      CHECKPOINT_1_2.signature,
    );
    expect(checked.problems).toEqual([]);
    expect(checked.key?.kid).toBe(RFC8032_TEST_1.thumbprint);
  });
});

describe('jwkThumbprint', () => {
  it('is SHA-256 of {"crv","kty","x"} in base64url, for generated keys too', async () => {
    const signer = createSigner();
    expect(await jwkThumbprint(nodeCrypto, signer.jwk)).toBe(thumbprint(signer.jwk.x));
    expect(await jwkThumbprint(webCrypto(), signer.jwk)).toBe(signer.kid);
  });

  it('ignores the other members of the key', async () => {
    const key: KeySetJwk = { ...(RFC8032_KEY_SET.keys[0] as KeySetJwk), kid: 'whatever', status: 'retired' };
    expect(await jwkThumbprint(nodeCrypto, key)).toBe(RFC8032_TEST_1.thumbprint);
  });

  it('refuses keys that are not OKP', async () => {
    await expect(jwkThumbprint(nodeCrypto, { kty: 'EC', crv: 'P-256', x: 'AA' })).rejects.toThrow(TypeError);
  });
});

describe('the key set', () => {
  it('finds a key by kid', () => {
    const [a, b] = [createSigner(), createSigner('retired')];
    expect(findKey(keySetOf(a, b), b.kid)).toBe(b.jwk);
    expect(findKey(keySetOf(a), b.kid)).toBeUndefined();
  });

  it('names what is wrong with its shape', () => {
    expect(keySetProblems(RFC8032_KEY_SET)).toEqual([]);
    expect(keySetProblems({ keys: [] })).toEqual([]);
    expect(keySetProblems(null)).toEqual(['the key set is not an object']);
    expect(keySetProblems([])).toEqual(['the key set is not an object']);
    expect(keySetProblems({ keys: {} })).toEqual(['the key set has no "keys" array']);
    expect(keySetProblems({ keys: [1, { kid: 2 }] })).toEqual([
      'keys[0] is not an object',
      'keys[1].kid is not a string',
    ]);
  });

  it('refuses a kid listed twice, whatever the keys under it', () => {
    const [a, b] = [createSigner(), createSigner()];
    expect(keySetProblems({ keys: [a.jwk, b.jwk, { ...b.jwk, status: 'retired' }, { ...a.jwk }] })).toEqual([
      `keys[2].kid ${b.kid} is also the kid of keys[1]: a key set lists each kid once`,
      `keys[3].kid ${a.kid} is also the kid of keys[0]: a key set lists each kid once`,
    ]);
  });

  it('accepts signatures by active and retired keys only: revoked, unknown or no status fails', async () => {
    const signer = createSigner();
    const text = '{"a":1}';
    const signature = signer.sign({ a: 1 });
    const withStatus = (status: unknown) => ({ keys: [{ ...signer.jwk, status }] }) as never;
    expect((await verifySignature(nodeCrypto, withStatus('active'), text, signature)).problems).toEqual([]);
    expect((await verifySignature(nodeCrypto, withStatus('retired'), text, signature)).problems).toEqual([]);
    expect((await verifySignature(nodeCrypto, withStatus('revoked'), text, signature)).problems).toEqual([
      `key ${signer.kid} is revoked: the platform withdrew it, so nothing it signed is accepted`,
    ]);
    expect((await verifySignature(nodeCrypto, withStatus('compromised'), text, signature)).problems).toEqual([
      `key ${signer.kid} has the status "compromised": only active and retired keys are accepted`,
    ]);
    expect((await verifySignature(nodeCrypto, withStatus(undefined), text, signature)).problems).toEqual([
      `key ${signer.kid} has no status: only active and retired keys are accepted`,
    ]);
  });
});

describe('keySetThumbprint', () => {
  it('is SHA-256 of the canonical JSON of the keys in kid order, each as crv, kid, kty, status and x', async () => {
    const [a, b] = [createSigner(), createSigner('retired')];
    const [first, second] = a.kid < b.kid ? [a, b] : [b, a];
    const members = (jwk: KeySetJwk) =>
      `{"crv":"Ed25519","kid":"${jwk.kid}","kty":"OKP","status":"${String(jwk.status)}","x":"${jwk.x}"}`;
    const expected = createHash('sha256')
      .update(`[${members(first.jwk)},${members(second.jwk)}]`, 'utf8')
      .digest('base64url');
    for (const port of [nodeCrypto, webCrypto()]) {
      expect(await keySetThumbprint(port, keySetOf(a, b))).toBe(expected);
      expect(await keySetThumbprint(port, keySetOf(b, a))).toBe(expected);
    }
  });

  it('changes with a key added, a key removed or a status changed, not with use or alg', async () => {
    const [a, b] = [createSigner(), createSigner()];
    const base = await keySetThumbprint(nodeCrypto, keySetOf(a));
    expect(await keySetThumbprint(nodeCrypto, keySetOf(a, b))).not.toBe(base);
    expect(await keySetThumbprint(nodeCrypto, { keys: [{ ...a.jwk, status: 'revoked' }] })).not.toBe(base);
    expect(await keySetThumbprint(nodeCrypto, { keys: [{ ...a.jwk, use: 'enc', alg: 'none' }] })).toBe(base);
    expect(await keySetThumbprint(nodeCrypto, RFC8032_KEY_SET)).toBe(RFC8032_KEY_SET_THUMBPRINT);
  });

  it('names an unknown kid, a kid that is not the thumbprint, a bad signature and a wrong alg', async () => {
    const signer = createSigner();
    const other = createSigner();
    const text = '{"a":1}';
    const signature = signer.sign({ a: 1 });
    expect((await verifySignature(nodeCrypto, keySetOf(signer), text, signature)).problems).toEqual([]);
    expect((await verifySignature(nodeCrypto, keySetOf(other), text, signature)).problems).toEqual([
      `signature kid ${signer.kid} is not in the key set`,
    ]);
    const mislabelled = { keys: [{ ...other.jwk, kid: signer.kid }] };
    expect((await verifySignature(nodeCrypto, mislabelled, text, signature)).problems).toEqual([
      `key ${signer.kid} has the thumbprint ${other.kid}, not its kid`,
      `signature does not verify with key ${signer.kid}`,
    ]);
    expect((await verifySignature(nodeCrypto, keySetOf(signer), '{"a":2}', signature)).problems).toEqual([
      `signature does not verify with key ${signer.kid}`,
    ]);
    const wrongAlg = { ...signature, alg: 'RS256' } as unknown as typeof signature;
    expect((await verifySignature(nodeCrypto, keySetOf(signer), text, wrongAlg)).problems).toEqual([
      'signature alg "RS256" is not "Ed25519"',
    ]);
    const notEd25519 = { keys: [{ ...signer.jwk, crv: 'P-256' }] };
    expect((await verifySignature(nodeCrypto, notEd25519, text, signature)).problems).toEqual([
      `key ${signer.kid} is not an Ed25519 public key (kty OKP, crv Ed25519, 32-byte x)`,
    ]);
  });
});

describe('base64url', () => {
  it('round-trips bytes and refuses non-canonical text', () => {
    for (let length = 0; length < 40; length += 1) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      const text = bytesToBase64url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(base64urlToBytes(text)).toEqual(bytes);
    }
    expect(base64urlToBytes('AA==')).toBeUndefined();
    expect(base64urlToBytes('A')).toBeUndefined();
    expect(base64urlToBytes('AB')).toBeUndefined(); // stray low bits
    expect(base64urlToBytes('A+/A')).toBeUndefined();
    expect(bytesToHex(hexToBytes('00ff10'))).toBe('00ff10');
    expect(() => hexToBytes('0F')).toThrow(TypeError);
  });
});
