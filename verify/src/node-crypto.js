// @ts-check
/**
 * The crypto port on node:crypto. For Node only: browsers use ./web-crypto.js.
 */
import { Buffer } from 'node:buffer';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { base64urlToBytes } from './base64url.js';

/** @typedef {import('./crypto-port.js').CryptoPort} CryptoPort */

/** Ed25519 public keys are 32 bytes; signatures are 64. */
const PUBLIC_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;

/** @type {CryptoPort} */
export const nodeCrypto = {
  async sha256Hex(text) {
    return createHash('sha256').update(text, 'utf8').digest('hex');
  },
  async verifyEd25519(jwk, message, signatureB64url) {
    try {
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return false;
      if (base64urlToBytes(jwk.x)?.length !== PUBLIC_KEY_BYTES) return false;
      const signature = base64urlToBytes(signatureB64url);
      if (signature?.length !== SIGNATURE_BYTES) return false;
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
      return verify(null, Buffer.from(message, 'utf8'), key, signature);
    } catch {
      return false;
    }
  },
};
