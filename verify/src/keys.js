// @ts-check
/**
 * The published key set (`/.well-known/updown-keys.json`, a JWKS) and signature checks against
 * it. A key's `kid` is its RFC 7638 thumbprint, so a verifier recomputes it from the key rather
 * than trusting the label.
 */
import { base64urlToBytes, bytesToBase64url, hexToBytes } from './base64url.js';

/** @typedef {import('./crypto-port.js').CryptoPort} CryptoPort */

/**
 * A key of the key set: an Ed25519 JWK (RFC 8037) with its id, use and rotation status.
 *
 * @typedef {object} KeySetJwk
 * @property {string} kty "OKP"
 * @property {string} crv "Ed25519"
 * @property {string} x the 32-byte public key, base64url
 * @property {string} kid RFC 7638 thumbprint of the key
 * @property {string} [use] "sig"
 * @property {string} [alg] "EdDSA"
 * @property {string} [status] "active" signs new documents; "retired" stays so old ones still verify
 */

/**
 * @typedef {object} KeySet
 * @property {readonly KeySetJwk[]} keys
 */

/**
 * A detached signature over the canonical JSON of a document.
 *
 * @typedef {object} Signature
 * @property {'Ed25519'} alg
 * @property {string} kid the key set's `kid` of the signing key
 * @property {string} sig the 64-byte signature, base64url without padding
 */

/**
 * @typedef {object} SignatureCheck
 * @property {string[]} problems empty when the signature is valid
 * @property {KeySetJwk | undefined} key the key the signature names, when the set has it
 */

/**
 * The RFC 7638 thumbprint of an Ed25519 JWK: SHA-256 of `{"crv":"Ed25519","kty":"OKP","x":"<x>"}`
 * (the required members in lexicographic order, no whitespace), base64url without padding.
 *
 * @param {CryptoPort} port
 * @param {{ kty: string, crv: string, x: string }} jwk
 * @returns {Promise<string>}
 * @throws {TypeError} for a key that is not an OKP key
 */
export async function jwkThumbprint(port, jwk) {
  if (jwk.kty !== 'OKP' || typeof jwk.crv !== 'string' || typeof jwk.x !== 'string') {
    throw new TypeError('a thumbprint is computed here for OKP keys only (kty "OKP" with crv and x)');
  }
  const members = `{"crv":${JSON.stringify(jwk.crv)},"kty":"OKP","x":${JSON.stringify(jwk.x)}}`;
  return bytesToBase64url(hexToBytes(await port.sha256Hex(members)));
}

/**
 * The key of `keySet` with this `kid`, if any.
 *
 * @param {KeySet} keySet
 * @param {string} kid
 * @returns {KeySetJwk | undefined}
 */
export function findKey(keySet, kid) {
  return keySet.keys.find((key) => key.kid === kid);
}

/**
 * What is wrong with the shape of a key set; empty when it is `{"keys": [{…, "kid": "…"}, …]}`.
 * Keys are not checked further here: a key is checked when a signature names it.
 *
 * @param {unknown} value
 * @returns {string[]}
 */
export function keySetProblems(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return ['the key set is not an object'];
  const keys = /** @type {{ keys?: unknown }} */ (value).keys;
  if (!Array.isArray(keys)) return ['the key set has no "keys" array'];
  /** @type {string[]} */
  const problems = [];
  keys.forEach((key, index) => {
    if (typeof key !== 'object' || key === null || Array.isArray(key)) {
      problems.push(`keys[${index}] is not an object`);
    } else if (typeof (/** @type {{ kid?: unknown }} */ (key).kid) !== 'string') {
      problems.push(`keys[${index}].kid is not a string`);
    }
  });
  return problems;
}

/**
 * Checks a signature over `text` against the key set: the alg is Ed25519, the kid names a key of
 * the set, that key is an Ed25519 key whose thumbprint is its kid, and the signature verifies.
 *
 * @param {CryptoPort} port
 * @param {KeySet} keySet
 * @param {string} text the signed text (canonical JSON)
 * @param {Signature} signature
 * @returns {Promise<SignatureCheck>}
 */
export async function verifySignature(port, keySet, text, signature) {
  if (signature.alg !== 'Ed25519') {
    return { problems: [`signature alg ${JSON.stringify(signature.alg)} is not "Ed25519"`], key: undefined };
  }
  const key = findKey(keySet, signature.kid);
  if (key === undefined) return { problems: [`signature kid ${signature.kid} is not in the key set`], key };
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519' || base64urlToBytes(key.x)?.length !== 32) {
    return {
      problems: [`key ${key.kid} is not an Ed25519 public key (kty OKP, crv Ed25519, 32-byte x)`],
      key,
    };
  }
  /** @type {string[]} */
  const problems = [];
  const thumbprint = await jwkThumbprint(port, key);
  if (thumbprint !== key.kid) problems.push(`key ${key.kid} has the thumbprint ${thumbprint}, not its kid`);
  if (!(await port.verifyEd25519(key, text, signature.sig))) {
    problems.push(`signature does not verify with key ${key.kid}`);
  }
  return { problems, key };
}
