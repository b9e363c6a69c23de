import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '@updown/verify/canonical';
import { jwkThumbprint, verifySignature } from '@updown/verify';
import { nodeCrypto } from '@updown/verify/node';
import { ConfigError } from '../config/env';
import { createLogger } from '../logger';
import {
  ed25519Thumbprint,
  generateSigningKey,
  parseSigningKey,
  resolveSigningKey,
  SIGNING_KEY_FILE,
  signingKeyFrom,
} from './signing-keys';

const logger = createLogger({ level: 'silent', name: 'signing-test' });
const dirs: string[] = [];
async function dataDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'updown-keys-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const config = (over: Partial<Parameters<typeof resolveSigningKey>[0]> = {}) => ({
  UPDOWN_ENV: 'development',
  DATA_DIR: '/nonexistent',
  SIGNING_KEY: undefined,
  SIGNING_KEYS_RETIRED: [],
  ...over,
});

describe('the signing key', () => {
  it('signs canonical JSON that the published key set verifies, under an RFC 7638 kid', async () => {
    const key = generateSigningKey();
    const value = { b: 1, a: 'x', nested: { z: [1, 2], y: null } };
    const signature = key.sign(value);
    expect(signature).toMatchObject({ alg: 'Ed25519', kid: key.kid });
    const [jwk] = key.keySet.keys;
    expect(jwk).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      use: 'sig',
      alg: 'EdDSA',
      status: 'active',
      kid: key.kid,
    });
    expect(await jwkThumbprint(nodeCrypto, jwk!)).toBe(key.kid);
    expect(await verifySignature(nodeCrypto, key.keySet, canonicalJson(value), signature)).toMatchObject({
      problems: [],
    });
    expect(
      (await verifySignature(nodeCrypto, key.keySet, canonicalJson({ ...value, b: 2 }), signature)).problems,
    ).toEqual([`signature does not verify with key ${key.kid}`]);
  });

  it('reads a PKCS#8 PEM or a base64url seed, and refuses anything else', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const seed = privateKey.export({ format: 'jwk' }).d!;
    const fromPem = signingKeyFrom(parseSigningKey(pem));
    const fromSeed = signingKeyFrom(parseSigningKey(seed));
    expect(fromSeed.kid).toBe(fromPem.kid);
    expect(signingKeyFrom(parseSigningKey(pem.replaceAll('\n', '\\n'))).kid).toBe(fromPem.kid); // one-line env form
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    for (const bad of ['', 'short', rsa]) expect(() => parseSigningKey(bad)).toThrow(ConfigError);
  });

  it('is generated once into DATA_DIR (mode 600) outside production and read back by every later process', async () => {
    const dir = await dataDir();
    const [first, second] = await Promise.all([
      resolveSigningKey(config({ DATA_DIR: dir }), logger),
      resolveSigningKey(config({ DATA_DIR: dir }), logger),
    ]);
    expect(second.kid).toBe(first.kid);
    const file = path.join(dir, SIGNING_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await resolveSigningKey(config({ DATA_DIR: dir }), logger)).kid).toBe(first.kid);
    const signature = first.sign({ n: 1 });
    const pem = await readFile(file, 'utf8');
    expect(
      verify(null, Buffer.from('{"n":1}'), parseSigningKey(pem), Buffer.from(signature.sig, 'base64url')),
    ).toBe(true);
    await writeFile(file, 'garbage');
    await expect(resolveSigningKey(config({ DATA_DIR: dir }), logger)).rejects.toThrow(
      /holds no usable Ed25519 key/,
    );
  });

  it('is required in production, and SIGNING_KEY wins over the file', async () => {
    await expect(resolveSigningKey(config({ UPDOWN_ENV: 'production' }), logger)).rejects.toThrow(
      /SIGNING_KEY is required/,
    );
    const seed = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }).d!;
    const dir = await dataDir();
    const chosen = await resolveSigningKey(
      config({ UPDOWN_ENV: 'production', SIGNING_KEY: seed, DATA_DIR: dir }),
      logger,
    );
    expect(chosen.kid).toBe(signingKeyFrom(parseSigningKey(seed)).kid);
    const composeDefault = Buffer.from('local-only-updown-signing-key-00').toString('base64url');
    expect((await resolveSigningKey(config({ SIGNING_KEY: composeDefault }), logger)).kid).toEqual(
      expect.any(String),
    );
    await expect(
      resolveSigningKey(config({ UPDOWN_ENV: 'production', SIGNING_KEY: composeDefault }), logger),
    ).rejects.toThrow(/local-only key/);
  });

  it('keeps retired keys in the set, so receipts they signed still verify after a rotation', async () => {
    const old = generateSigningKey();
    const oldX = old.keySet.keys[0]!.x;
    const signature = old.sign({ receipt: 1 });
    const current = await resolveSigningKey(
      config({
        SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }).d!,
        SIGNING_KEYS_RETIRED: [oldX],
      }),
      logger,
    );
    expect(current.keySet.keys.map((k) => k.status)).toEqual(['active', 'retired']);
    expect(current.keySet.keys[1]!.kid).toBe(ed25519Thumbprint(oldX));
    expect((await verifySignature(nodeCrypto, current.keySet, '{"receipt":1}', signature)).problems).toEqual(
      [],
    );
  });
});
