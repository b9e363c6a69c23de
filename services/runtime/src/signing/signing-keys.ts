import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { canonicalJson } from '@updown/verify/canonical';
import { ConfigError } from '../config/env';
import { readOrCreateSecretFile } from '../config/data-dir-secret';
import type { Logger } from '../logger';

/**
 * The platform's Ed25519 signing key, which signs tick-chain checkpoints (price-ingest) and trade
 * receipts (settlement), and the public key set served at `/.well-known/updown-keys.json`.
 *
 * - `SIGNING_KEY` when set: a PKCS#8 PEM (`openssl genpkey -algorithm ed25519`) or the 32-byte
 *   private seed in base64url. Production requires it.
 * - Otherwise, outside production, a key generated once into `<DATA_DIR>/signing-key.pem`
 *   (mode 600), so restarts and several processes sharing `DATA_DIR` sign with one key.
 * - `SIGNING_KEYS_RETIRED`: public keys (base64url `x` values, comma-separated) of earlier keys,
 *   kept in the key set as `retired` so receipts they signed still verify after a rotation.
 *
 * Key ids are RFC 7638 thumbprints, so anyone can recompute a kid from the key it names.
 */

export const SIGNING_KEY_FILE = 'signing-key.pem';

/** A public key as the key set publishes it (JWK, RFC 8037). */
export interface PublicSigningJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  readonly use: 'sig';
  readonly alg: 'EdDSA';
  readonly status: 'active' | 'retired';
}

export interface KeySet {
  readonly keys: readonly PublicSigningJwk[];
}

export interface Signature {
  readonly alg: 'Ed25519';
  readonly kid: string;
  /** The 64-byte signature, base64url without padding. */
  readonly sig: string;
}

export interface SigningKey {
  readonly kid: string;
  readonly keySet: KeySet;
  /** Signs the canonical JSON of `value` (see docs/receipts.md). */
  sign(value: unknown): Signature;
  /** Signs already-canonical text. */
  signText(text: string): Signature;
}

interface SigningKeyConfig {
  readonly UPDOWN_ENV: string;
  readonly DATA_DIR: string;
  readonly SIGNING_KEY: string | undefined;
  readonly SIGNING_KEYS_RETIRED: readonly string[];
}

/** PKCS#8 DER of an Ed25519 private key is this prefix followed by the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The RFC 7638 thumbprint of an Ed25519 public key given by its base64url `x`. */
export function ed25519Thumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

/** A signing key from its private key object, with the retired public keys beside it in the set. */
export function signingKeyFrom(privateKey: KeyObject, retired: readonly string[] = []): SigningKey {
  const x = publicX(createPublicKey(privateKey));
  const kid = ed25519Thumbprint(x);
  const jwk = (key: string, status: 'active' | 'retired'): PublicSigningJwk => ({
    kty: 'OKP',
    crv: 'Ed25519',
    x: key,
    kid: ed25519Thumbprint(key),
    use: 'sig',
    alg: 'EdDSA',
    status,
  });
  const keySet: KeySet = {
    keys: [jwk(x, 'active'), ...retired.filter((key) => key !== x).map((key) => jwk(key, 'retired'))],
  };
  const signText = (text: string): Signature => ({
    alg: 'Ed25519',
    kid,
    sig: sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64url'),
  });
  return { kid, keySet, signText, sign: (value) => signText(canonicalJson(value)) };
}

/** A fresh key, for tests and tools. */
export function generateSigningKey(): SigningKey {
  return signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
}

/** Parses `SIGNING_KEY`: a PKCS#8 PEM, or a base64url 32-byte seed. */
export function parseSigningKey(text: string): KeyObject {
  const trimmed = text.trim().replaceAll('\\n', '\n');
  let key: KeyObject;
  try {
    if (trimmed.startsWith('-----BEGIN')) key = createPrivateKey(trimmed);
    else {
      const seed = Buffer.from(trimmed, 'base64url');
      if (seed.length !== 32) throw new Error('not 32 bytes');
      key = createPrivateKey({
        key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
        format: 'der',
        type: 'pkcs8',
      });
    }
  } catch {
    throw new ConfigError(['SIGNING_KEY must be an Ed25519 PKCS#8 PEM or a base64url 32-byte seed']);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError(['SIGNING_KEY must be an Ed25519 key']);
  return key;
}

/**
 * The platform's signing key: `SIGNING_KEY`, else (outside production) the key in
 * `<DATA_DIR>/signing-key.pem`, generated on first use. The first process to write the file wins.
 */
export async function resolveSigningKey(config: SigningKeyConfig, logger: Logger): Promise<SigningKey> {
  const retired = config.SIGNING_KEYS_RETIRED.map((key) => key.trim()).filter((key) => key !== '');
  if (config.SIGNING_KEY !== undefined) {
    if (config.UPDOWN_ENV === 'production' && isLocalOnlyKey(config.SIGNING_KEY)) {
      throw new ConfigError([
        "SIGNING_KEY is the compose file's local-only key; production needs a key of its own",
      ]);
    }
    return signingKeyFrom(parseSigningKey(config.SIGNING_KEY), retired);
  }
  if (config.UPDOWN_ENV === 'production') {
    throw new ConfigError([
      'SIGNING_KEY is required when UPDOWN_ENV=production (generate one: openssl genpkey -algorithm ed25519)',
    ]);
  }
  const { secret, created, file } = await readOrCreateSecretFile({
    dataDir: config.DATA_DIR,
    file: SIGNING_KEY_FILE,
    generate: () =>
      generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    parse: (text, path) => {
      try {
        return parseSigningKey(text);
      } catch {
        throw new ConfigError([`${path} holds no usable Ed25519 key; delete it to generate a new one`]);
      }
    },
  });
  if (created) {
    logger.info(
      { file },
      'generated a signing key for checkpoints and receipts; set SIGNING_KEY to choose one',
    );
  }
  return signingKeyFrom(secret, retired);
}

/** The compose file's development default: a seed that spells `local-only-…`, refused in production. */
function isLocalOnlyKey(text: string): boolean {
  return Buffer.from(text.trim(), 'base64url').toString('latin1').startsWith('local-only');
}

function publicX(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('an Ed25519 public key exports an x coordinate');
  return jwk.x;
}
