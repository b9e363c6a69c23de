// @ts-check
/**
 * The published key set (`/.well-known/updown-keys.json`, a JWKS) and signature checks against
 * it. A key's `kid` is its RFC 7638 thumbprint, so a verifier recomputes it from the key rather
 * than trusting the label.
 */
import { base64urlToBytes, bytesToBase64url, hexToBytes } from './base64url.js';
import { canonicalJson } from './canonical.js';

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
 * @property {string} [status] "active" signs new documents; "retired" stays so old ones still
 *   verify; "revoked" (a key the platform withdrew) and any other status make its signatures fail
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
 * The statuses whose keys' signatures are accepted. Anything else fails: "revoked", which the
 * platform sets on a key it no longer vouches for (a leak), a status this verifier does not know,
 * and no status at all, since a key set that does not say a key is usable does not vouch for it.
 */
export const ACCEPTED_KEY_STATUSES = /** @type {const} */ (['active', 'retired']);

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
 * What is wrong with the shape of a key set; empty when it is `{"keys": [{…, "kid": "…"}, …]}`
 * with no kid listed twice (two keys under one kid would let a set name one key and verify with
 * another). Keys are not checked further here: a key is checked when a signature names it.
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
  /** @type {Map<string, number>} */
  const firstIndexOfKid = new Map();
  keys.forEach((key, index) => {
    if (typeof key !== 'object' || key === null || Array.isArray(key)) {
      problems.push(`keys[${index}] is not an object`);
      return;
    }
    const kid = /** @type {{ kid?: unknown }} */ (key).kid;
    if (typeof kid !== 'string') {
      problems.push(`keys[${index}].kid is not a string`);
      return;
    }
    const first = firstIndexOfKid.get(kid);
    if (first === undefined) firstIndexOfKid.set(kid, index);
    else
      problems.push(
        `keys[${index}].kid ${kid} is also the kid of keys[${first}]: a key set lists each kid once`,
      );
  });
  return problems;
}

/**
 * The key set's thumbprint: one value that stands for every key of the set and its status, which
 * the platform publishes (its site, its README) so that a trader can pin the set a receipt is
 * checked against. It is the SHA-256, in base64url without padding, of the canonical JSON of the
 * array of the set's keys in kid order (UTF-16 code units, as JavaScript sorts), each reduced to
 * `{"crv", "kid", "kty", "status", "x"}` (a missing member as null). The kids are not trusted here:
 * the signature check recomputes the kid of the key a signature names.
 *
 * @param {CryptoPort} port
 * @param {KeySet} keySet a key set without shape problems ({@link keySetProblems})
 * @returns {Promise<string>}
 */
export async function keySetThumbprint(port, keySet) {
  /** @param {unknown} value */
  const member = (value) => (typeof value === 'string' ? value : null);
  const keys = [...keySet.keys]
    .sort((a, b) => (a.kid < b.kid ? -1 : a.kid > b.kid ? 1 : 0))
    .map((key) => ({
      crv: member(key.crv),
      kid: key.kid,
      kty: member(key.kty),
      status: member(key.status),
      x: member(key.x),
    }));
  return bytesToBase64url(hexToBytes(await port.sha256Hex(canonicalJson(keys, 'keys'))));
}

/**
 * Why a key's signatures are not accepted, or undefined when its status is one of
 * {@link ACCEPTED_KEY_STATUSES}.
 *
 * @param {KeySetJwk} key
 * @returns {string | undefined}
 */
export function keyStatusProblem(key) {
  const status = /** @type {unknown} */ (key.status);
  if (status === 'active' || status === 'retired') return undefined;
  if (status === 'revoked') {
    return `key ${key.kid} is revoked: the platform withdrew it, so nothing it signed is accepted`;
  }
  if (status === undefined) return `key ${key.kid} has no status: only active and retired keys are accepted`;
  return `key ${key.kid} has the status ${JSON.stringify(status)}: only active and retired keys are accepted`;
}

/**
 * Checks a signature over `text` against the key set: the alg is Ed25519, the kid names a key of
 * the set, that key is an Ed25519 key whose thumbprint is its kid and whose status is active or
 * retired, and the signature verifies.
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
  const status = keyStatusProblem(key);
  if (status !== undefined) problems.push(status);
  if (!(await port.verifyEd25519(key, text, signature.sig))) {
    problems.push(`signature does not verify with key ${key.kid}`);
  }
  return { problems, key };
}
