// @ts-check
/**
 * The crypto port on Web Crypto (`crypto.subtle`), for browsers and any runtime that has it
 * (Node 20 and later, Deno, Bun). Imports nothing.
 */
import { base64urlToBytes, bytesToHex } from './base64url.js';

/** @typedef {import('./crypto-port.js').CryptoPort} CryptoPort */

/** Ed25519 public keys are 32 bytes; signatures are 64. */
const PUBLIC_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;

/**
 * The part of SubtleCrypto this port uses.
 *
 * @typedef {{
 *   digest(algorithm: 'SHA-256', data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
 *   importKey(
 *     format: 'jwk',
 *     key: { kty: string, crv: string, x: string },
 *     algorithm: { name: 'Ed25519' },
 *     extractable: boolean,
 *     usages: ['verify'],
 *   ): Promise<unknown>;
 *   verify(
 *     algorithm: 'Ed25519',
 *     key: unknown,
 *     signature: Uint8Array<ArrayBuffer>,
 *     data: Uint8Array<ArrayBuffer>,
 *   ): Promise<boolean>;
 * }} SubtleSubset
 */

/**
 * The port on a SubtleCrypto: by default the global `crypto.subtle`.
 *
 * @param {SubtleSubset} [subtle]
 * @returns {CryptoPort}
 */
export function webCrypto(subtle) {
  const encoder = new TextEncoder();
  /** @returns {SubtleSubset} */
  const api = () => {
    const found = subtle ?? /** @type {{ crypto?: { subtle?: SubtleSubset } }} */ (globalThis).crypto?.subtle;
    if (found === undefined) throw new Error('Web Crypto (crypto.subtle) is not available here');
    return found;
  };
  return {
    async sha256Hex(text) {
      return bytesToHex(new Uint8Array(await api().digest('SHA-256', encoder.encode(text))));
    },
    async verifyEd25519(jwk, message, signatureB64url) {
      try {
        if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return false;
        if (base64urlToBytes(jwk.x)?.length !== PUBLIC_KEY_BYTES) return false;
        const signature = base64urlToBytes(signatureB64url);
        if (signature?.length !== SIGNATURE_BYTES) return false;
        const key = await api().importKey(
          'jwk',
          { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
          { name: 'Ed25519' },
          false,
          ['verify'],
        );
        return await api().verify('Ed25519', key, signature, encoder.encode(message));
      } catch {
        return false;
      }
    },
  };
}
